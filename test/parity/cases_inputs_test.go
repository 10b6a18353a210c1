package parity

import "testing"

// Inputs as models send them (issue 28, area 1): numbers and booleans as strings,
// integers written as 2.0, fractions, arrays of one, and the parameter names
// models borrow from other tools, which Claude Code 2.1.328 repairs before its
// schema check.

var inputFiles = map[string]string{"a.txt": "l1\nl2\nl3\nl4\nl5\n"}

// Deliberate differences of inputs (README, "Compatibility with Claude Code").
const (
	diffRgContext = "a fractional -A/-B/-C/context: Claude Code 2.1.328 passes it to ripgrep, which refuses it in its own version's words; toolpipe refuses it before searching, as a schema failure"
	diffZodRaw    = "an integer beyond 2^53-1: Claude Code 2.1.328 shows its schema library's raw issue as JSON; toolpipe words it as its other type failures"
)

var inputCases = []parityCase{
	{name: "in_limit_string", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","limit":"2"}`)}},
	{name: "in_offset_string", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","offset":"4"}`)}},
	{name: "in_offset_float", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","offset":2.0,"limit":1}`)}},
	{name: "in_limit_float_string", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","limit":"2.0"}`)}},
	{name: "in_limit_frac_string", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","limit":"1.5"}`)}},
	{name: "in_limit_spaces", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","limit":" 3 "}`)}},
	{name: "in_limit_plus", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","limit":"+2"}`)}},
	{name: "in_limit_exp", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","limit":"1e1"}`)}},
	{name: "in_limit_empty", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","limit":""}`)}},
	{name: "in_offset_array", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","offset":[3],"limit":[1]}`)}},
	{name: "in_offset_array2", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","offset":[3,4]}`)}},
	{name: "in_length", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","length":2}`)}},
	{name: "in_length_and_limit", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","length":2,"limit":3}`)}},
	{name: "in_read_description", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","description":"look","limit":1}`)}},
	{name: "in_limit_zero", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","limit":0}`)}},
	{name: "in_offset_neg_string", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","offset":"-2","limit":"1"}`)}},
	{name: "in_allow_large_string", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","allow_large":"true","limit":1}`)}},
	{name: "in_allow_large_caps", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","allow_large":"TRUE"}`)}},
	{name: "in_allow_large_one", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","allow_large":1}`)}},
	{name: "in_path_number", blocks: []caseBlock{blk("Read", `{"file_path":12}`)}},
	{name: "in_replace_all_string", files: map[string]string{"e.txt": "x\nx\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt"}`), blk("Edit", `{"file_path":"$D/e.txt","old_string":"x","new_string":"y","replace_all":"true"}`)}},
	{name: "in_replace_all_false", files: map[string]string{"e.txt": "x\nx\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt"}`), blk("Edit", `{"file_path":"$D/e.txt","old_string":"x","new_string":"y","replace_all":"false"}`)}},
	{name: "in_edit_aliases", files: map[string]string{"e.txt": "alpha\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt"}`), blk("Edit", `{"path":"$D/e.txt","old_str":"alpha","new_str":"beta"}`)}},
	{name: "in_edit_replace_name", files: map[string]string{"e.txt": "x\nx\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt"}`), blk("Edit", `{"file_path":"$D/e.txt","old_string":"x","new_string":"z","replace_name":"true"}`)}},
	{name: "in_write_aliases", blocks: []caseBlock{blk("Write", `{"path":"$D/w.txt","file_text":"hi\n"}`)}},
	{name: "in_write_description", blocks: []caseBlock{blk("Write", `{"file_path":"$D/w.txt","content":"hi\n","description":"make it","command":"create"}`)}},
	{name: "in_write_repeated", blocks: []caseBlock{blk("Write", `{"file_path":"$D/w.txt","path":"$D/w.txt","content":"hi\n","text":"hi\n"}`)}},
	{name: "in_bash_timeout_string", blocks: []caseBlock{blk("Bash", `{"command":"echo t","timeout":"5000"}`)}},
	{name: "in_bash_timeout_frac", blocks: []caseBlock{blk("Bash", `{"command":"echo f","timeout":1500.5}`)}},
	{name: "in_bash_timeout_ms", blocks: []caseBlock{blk("Bash", `{"command":"echo ms","timeout_ms":"4000"}`)}},
	{name: "in_bash_command_description", blocks: []caseBlock{blk("Bash", `{"command":"echo d","command_description":"say d"}`)}},
	{name: "in_bash_background_false", blocks: []caseBlock{blk("Bash", `{"command":"echo bg","run_in_background":"false"}`)}},
	{name: "in_bash_timeout_bad", blocks: []caseBlock{blk("Bash", `{"command":"echo b","timeout":"soon"}`)}},
	{name: "in_grep_strings", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"todo","path":"$D","-i":"true","head_limit":"1","output_mode":"content","-n":"false"}`)}},
	{name: "in_grep_context_string", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"middle","path":"$D/multi.txt","output_mode":"content","-C":"1"}`)}},
	{name: "in_grep_file_path", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"hello","file_path":"$D/b.txt"}`)}},
	{name: "in_grep_count_flag", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"TODO","path":"$D","count":true}`)}},
	{name: "in_grep_r", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"hello","path":"$D","-r":true}`)}},
	{name: "in_grep_l", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"hello","path":"$D","-l":true}`)}},
	{name: "in_grep_context_frac", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"middle","path":"$D/multi.txt","output_mode":"content","-C":1.5}`)},
		differs: diffRgContext, want: map[int]func(result) string{0: isErrorWith("<tool_use_error>InputValidationError: Grep failed due to the following issue:\nThe parameter `-C` type is expected as `int` but provided as `number`")}},
	{name: "in_grep_head_frac", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"e","path":"$D/multi.txt","output_mode":"content","head_limit":2.5}`)}},
	{name: "in_grep_head_float", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"e","path":"$D/multi.txt","output_mode":"content","head_limit":2.0}`)}},
	{name: "in_big_int", files: inputFiles, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","offset":1e20}`)},
		differs: diffZodRaw, want: map[int]func(result) string{0: isErrorWith("<tool_use_error>InputValidationError: Read failed due to the following issue:\nThe parameter `offset` type is expected as `int` but provided as `number`")}},
	{name: "in_write_bad_alias", blocks: []caseBlock{blk("Write", `{"path":"$D/w.txt","bogus":1}`)}},
	{name: "in_grep_alias_error", blocks: []caseBlock{blk("Grep", `{"pattern":"x","file_path":"$D/missing"}`)}},
	{name: "in_glob_empty", files: searchFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"","path":"$D/sub"}`)}},
	{name: "in_grep_empty", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"","path":"$D/sub/d"}`)}},
	{name: "in_glob_description", files: searchFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"*.md","path":"$D/sub/d","description":"x"}`)}},
}

// TestParityInputs compares the inputs models send that Claude Code repairs or
// coerces (cases_inputs_test.go).
func TestParityInputs(t *testing.T) {
	compare(t, "inputs", inputCases)
}
