package parity

import "testing"

// A differential sweep (issue 28, round two's leftovers): a leading `cd <working
// directory> && ` in Bash, as models send it; \uXXXX escapes written out in Edit
// and Write inputs, and the other way round; and more inputs of the seven areas as
// models send them. $W is the working directory.

// diffTrimmedPath is the sweep's deliberate difference (README, "Compatibility with
// Claude Code").
const diffTrimmedPath = "a path with white space around it: both trim it and write the same file; Claude Code's Write and Edit results name the path as the model wrote it, toolpipe's the path it wrote (the input is trimmed before the permission check, which must see the path used)"

var sweepCases = []parityCase{
	// Bash: cd into the working directory first (Claude Code's cwd stays there, so
	// later cases are unaffected).
	{name: "sw_cd_and", blocks: []caseBlock{blk("Bash", `{"command":"cd $W && pwd"}`)}},
	{name: "sw_cd_quoted", blocks: []caseBlock{blk("Bash", `{"command":"cd \"$W\" && pwd && echo \"$PWD\""}`)}},
	{name: "sw_cd_semicolon", blocks: []caseBlock{blk("Bash", `{"command":"cd $W; pwd"}`)}},
	{name: "sw_cd_slash", blocks: []caseBlock{blk("Bash", `{"command":"cd $W/ && pwd"}`)}},
	{name: "sw_cd_twice", blocks: []caseBlock{blk("Bash", `{"command":"cd $W && cd $W && echo ok"}`)}},
	{name: "sw_cd_exit", blocks: []caseBlock{blk("Bash", `{"command":"cd $W && echo out && exit 3"}`)}},
	{name: "sw_cd_missing", blocks: []caseBlock{blk("Bash", `{"command":"cd /nonexistent-parity-dir && echo hi"}`)}},
	{name: "sw_cd_dot", blocks: []caseBlock{blk("Bash", `{"command":"cd . && pwd"}`)}},
	{name: "sw_cd_subshell", files: map[string]string{"a.txt": "x\n"}, blocks: []caseBlock{blk("Bash", `{"command":"(cd $D && ls) && pwd"}`)}},
	{name: "sw_cd_write", blocks: []caseBlock{blk("Bash", `{"command":"cd $W && echo made > sw_cd_write/m.txt && cat sw_cd_write/m.txt"}`)}},
	// \uXXXX escapes.
	{name: "sw_esc_literal_in_file", files: map[string]string{"a.js": "const s = \"caf\\u00e9\";\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.js"}`), blk("Edit", `{"file_path":"$D/a.js","old_string":"caf\\u00e9","new_string":"th\\u00e9"}`)}},
	{name: "sw_esc_char_for_literal", files: map[string]string{"a.js": "const s = \"caf\\u00e9\";\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.js"}`), blk("Edit", `{"file_path":"$D/a.js","old_string":"café","new_string":"thé"}`)}},
	{name: "sw_esc_new_only", files: map[string]string{"u.txt": "cafe ok\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/u.txt"}`), blk("Edit", `{"file_path":"$D/u.txt","old_string":"cafe","new_string":"caf\\u00e9"}`)}},
	{name: "sw_esc_upper_hex", files: map[string]string{"u.txt": "café ok\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/u.txt"}`), blk("Edit", `{"file_path":"$D/u.txt","old_string":"caf\\u00E9","new_string":"tea"}`)}},
	{name: "sw_esc_surrogates", files: map[string]string{"u.txt": "smile 😀 here\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/u.txt"}`), blk("Edit", `{"file_path":"$D/u.txt","old_string":"smile \\ud83d\\ude00","new_string":"frown"}`)}},
	{name: "sw_esc_write", blocks: []caseBlock{blk("Write", `{"file_path":"$D/w.txt","content":"caf\\u00e9\n"}`)}},
	{name: "sw_esc_write_double", blocks: []caseBlock{blk("Write", `{"file_path":"$D/w.txt","content":"a\\\\u00e9 b\n"}`)}},
	{name: "sw_esc_newline_literal", files: map[string]string{"n.txt": "one\ntwo\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/n.txt"}`), blk("Edit", `{"file_path":"$D/n.txt","old_string":"one\\ntwo","new_string":"1\\n2"}`)}},
	{name: "sw_esc_tab_literal", files: map[string]string{"t.txt": "a\tb\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/t.txt"}`), blk("Edit", `{"file_path":"$D/t.txt","old_string":"a\\tb","new_string":"ab"}`)}},
	{name: "sw_esc_mixed", files: map[string]string{"m.txt": "café and \\u00e9\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/m.txt"}`), blk("Edit", `{"file_path":"$D/m.txt","old_string":"\\u00e9","new_string":"E"}`)}},
	{name: "sw_esc_bash", blocks: []caseBlock{blk("Bash", `{"command":"printf '%s\\n' 'caf\\u00e9'"}`)}},
	{name: "sw_esc_write_json", blocks: []caseBlock{blk("Write", `{"file_path":"$D/a.json","content":"{\"a\":\"caf\\u00e9\"}\n"}`)}},
	{name: "sw_esc_write_ascii", blocks: []caseBlock{blk("Write", `{"file_path":"$D/a.txt","content":"\\u0041B\n"}`)}},
	{name: "sw_esc_write_lone_surrogate", blocks: []caseBlock{blk("Write", `{"file_path":"$D/a.txt","content":"x\\ud83dy\n"}`)}},
	{name: "sw_esc_write_control", blocks: []caseBlock{blk("Write", `{"file_path":"$D/a.txt","content":"bell\\u0007 \\u00e9\n"}`)}},
	{name: "sw_esc_write_windows_path", blocks: []caseBlock{blk("Write", `{"file_path":"$D/a.txt","content":"C:\\users\\u00e9\n"}`)}},
	{name: "sw_esc_write_existing_literal", files: map[string]string{"a.js": "x = \"\\u00e9\";\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.js"}`), blk("Write", `{"file_path":"$D/a.js","content":"y = \"\\u00e9\";\n"}`)}},
	{name: "sw_esc_edit_new_file_has_esc", files: map[string]string{"a.js": "a = \"\\u00e8\"; b = 1;\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.js"}`), blk("Edit", `{"file_path":"$D/a.js","old_string":"b = 1","new_string":"b = \"\\u00e9\""}`)}},
	{name: "sw_esc_edit_escaped_upper", files: map[string]string{"a.js": "s = \"caf\\u00E9\";\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.js"}`), blk("Edit", `{"file_path":"$D/a.js","old_string":"café","new_string":"thè"}`)}},
	{name: "sw_esc_edit_escaped_pair", files: map[string]string{"a.js": "s = \"\\ud83d\\ude00\";\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.js"}`), blk("Edit", `{"file_path":"$D/a.js","old_string":"\"😀\"","new_string":"\"😁\""}`)}},
	{name: "sw_esc_grep", files: map[string]string{"a.txt": "café\n"}, blocks: []caseBlock{blk("Grep", `{"pattern":"caf\\u00e9","path":"$D","output_mode":"content"}`)}},
	// Inputs as models send them.
	{name: "sw_read_trailing_space", files: map[string]string{"a.txt": "x\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt "}`)}},
	{name: "sw_read_dot_slash", files: map[string]string{"a.txt": "x\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"./sw_read_dot_slash/a.txt"}`)}},
	{name: "sw_read_double_slash", files: map[string]string{"a.txt": "x\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D//a.txt"}`)}},
	{name: "sw_read_limit_zero", files: map[string]string{"a.txt": "x\ny\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","limit":0}`)}},
	{name: "sw_read_empty_path", blocks: []caseBlock{blk("Read", `{"file_path":""}`)}},
	{name: "sw_read_null_limit", files: map[string]string{"a.txt": "x\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","limit":null}`)}},
	{name: "sw_edit_same", files: map[string]string{"a.txt": "x\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt"}`), blk("Edit", `{"file_path":"$D/a.txt","old_string":"x","new_string":"x"}`)}},
	{name: "sw_edit_replace_all_false", files: map[string]string{"a.txt": "x x\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt"}`), blk("Edit", `{"file_path":"$D/a.txt","old_string":"x","new_string":"y","replace_all":"false"}`)}},
	{name: "sw_edit_relative", files: map[string]string{"a.txt": "x\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"sw_edit_relative/a.txt"}`), blk("Edit", `{"file_path":"sw_edit_relative/a.txt","old_string":"x","new_string":"y"}`)}},
	{name: "sw_write_empty", blocks: []caseBlock{blk("Write", `{"file_path":"$D/e.txt","content":""}`)}},
	{name: "sw_write_missing_content", blocks: []caseBlock{blk("Write", `{"file_path":"$D/e.txt"}`)}},
	{name: "sw_bash_empty", blocks: []caseBlock{blk("Bash", `{"command":""}`)}},
	{name: "sw_bash_blank", blocks: []caseBlock{blk("Bash", `{"command":"   "}`)}},
	{name: "sw_bash_timeout_word", blocks: []caseBlock{blk("Bash", `{"command":"echo hi","timeout":"abc"}`)}},
	{name: "sw_bash_extra_field", blocks: []caseBlock{blk("Bash", `{"command":"echo hi","cwd":"/tmp"}`)}},
	// Glob and Grep.
	{name: "sw_glob_case", files: map[string]string{"A.TXT": "x", "b.txt": "y"}, blocks: []caseBlock{blk("Glob", `{"pattern":"*.txt","path":"$D"}`)}},
	{name: "sw_glob_relative_path", files: map[string]string{"s/a.go": "x"}, blocks: []caseBlock{blk("Glob", `{"pattern":"*.go","path":"sw_glob_relative_path/s"}`)}},
	{name: "sw_glob_abs_pattern", files: map[string]string{"a.md": "x"}, blocks: []caseBlock{blk("Glob", `{"pattern":"$D/*.md"}`)}},
	{name: "sw_glob_empty", files: map[string]string{"a.txt": "x"}, blocks: []caseBlock{blk("Glob", `{"pattern":"","path":"$D"}`)}},
	{name: "sw_glob_trailing_slash", files: map[string]string{"d/a.txt": "x"}, blocks: []caseBlock{blk("Glob", `{"pattern":"d/","path":"$D"}`)}},
	{name: "sw_grep_i_string", files: map[string]string{"a.txt": "Hello\n"}, blocks: []caseBlock{blk("Grep", `{"pattern":"hello","path":"$D","-i":"true","output_mode":"content"}`)}},
	{name: "sw_grep_brace_glob", files: map[string]string{"a.txt": "hit\n", "b.md": "hit\n", "c.go": "hit\n"}, blocks: []caseBlock{blk("Grep", `{"pattern":"hit","path":"$D","glob":"*.{txt,md}"}`)}},
	{name: "sw_grep_empty_pattern", files: map[string]string{"a.txt": "x\n"}, blocks: []caseBlock{blk("Grep", `{"pattern":"","path":"$D"}`)}},
	{name: "sw_grep_n_false", files: map[string]string{"a.txt": "x\n"}, blocks: []caseBlock{blk("Grep", `{"pattern":"x","path":"$D","output_mode":"content","-n":false}`)}},
	{name: "sw_write_trailing_space", blocks: []caseBlock{blk("Write", `{"file_path":"$D/w.txt ","content":"x\n"}`)},
		differs: diffTrimmedPath, want: map[int]func(result) string{0: isResult("File created successfully at: <W>/sw_write_trailing_space/w.txt (file state is current in your context — no need to Read it back)")}},
	{name: "sw_glob_path_trailing_space", files: map[string]string{"a.txt": "x"}, blocks: []caseBlock{blk("Glob", `{"pattern":"*.txt","path":"$D "}`)}},
	{name: "sw_edit_trailing_space", files: map[string]string{"a.txt": "x\n"},
		blocks:  []caseBlock{blk("Read", `{"file_path":"$D/a.txt"}`), blk("Edit", `{"file_path":"$D/a.txt\t","old_string":"x","new_string":"y"}`)},
		differs: diffTrimmedPath, want: map[int]func(result) string{1: isResult("The file <W>/sw_edit_trailing_space/a.txt has been updated successfully. (file state is current in your context — no need to Read it back)")}},
	{name: "sw_grep_path_trailing_space", files: map[string]string{"a.txt": "x\n"}, blocks: []caseBlock{blk("Grep", `{"pattern":"x","path":"$D\n"}`)}},
	{name: "sw_read_blank_path", blocks: []caseBlock{blk("Read", `{"file_path":"   "}`)}},
	{name: "sw_read_leading_space", files: map[string]string{"a.txt": "x\n"}, blocks: []caseBlock{blk("Read", `{"file_path":" $D/a.txt"}`)}},
}

// TestParitySweep compares the sweep's cases (cases_sweep_test.go).
func TestParitySweep(t *testing.T) {
	compare(t, "sweep", sweepCases)
}
