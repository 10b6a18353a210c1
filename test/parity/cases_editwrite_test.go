package parity

import "testing"

// Edit and Write details (issue 28, area 3).

// diffParallelReads: a partial and a whole Read of one file in one message.
const diffParallelReads = "a partial and a whole Read of one file in the same message: Claude Code 2.1.328 runs them in parallel and keeps the view of whichever finishes last; toolpipe applies their context changes in the order the model wrote them, so the later whole Read counts"

// freshNote ends Write and Edit results when the model's view of the file is current.
const freshNote = " (file state is current in your context — no need to Read it back)"

var editWriteCases = []parityCase{
	{name: "ew_empty_file_empty_old", files: map[string]string{"e.txt": ""},
		blocks:  []caseBlock{blk("Edit", `{"file_path":"$D/e.txt","old_string":"","new_string":"filled\n"}`)},
		differs: diffReadFirst, want: map[int]func(result) string{0: isErrorWith("<tool_use_error>File has not been read yet.")}},
	{name: "ew_empty_file_read_empty_old", files: map[string]string{"e.txt": ""},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt"}`), blk("Edit", `{"file_path":"$D/e.txt","old_string":"","new_string":"filled\n"}`)}},
	{name: "ew_ws_txt", files: map[string]string{"f.txt": "a\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"a","new_string":"b  \nc\t\nd"}`)}},
	{name: "ew_ws_py", files: map[string]string{"f.py": "a = 1\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.py"}`), blk("Edit", `{"file_path":"$D/f.py","old_string":"a = 1","new_string":"a = 2   \nb = 3\t"}`)}},
	{name: "ew_ws_md", files: map[string]string{"f.md": "a\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.md"}`), blk("Edit", `{"file_path":"$D/f.md","old_string":"a","new_string":"line  \nnext"}`)}},
	{name: "ew_ws_mdx", files: map[string]string{"f.mdx": "a\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.mdx"}`), blk("Edit", `{"file_path":"$D/f.mdx","old_string":"a","new_string":"line  \nnext"}`)}},
	{name: "ew_ws_write_py", blocks: []caseBlock{blk("Write", `{"file_path":"$D/w.py","content":"x = 1   \ny = 2\t\n"}`)}},
	{name: "ew_ws_write_md", blocks: []caseBlock{blk("Write", `{"file_path":"$D/w.md","content":"hard  \nbreak\n"}`)}},
	{name: "ew_ws_old_trailing", files: map[string]string{"f.go": "x := 1   \ny := 2\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.go"}`), blk("Edit", `{"file_path":"$D/f.go","old_string":"x := 1\ny","new_string":"x := 9\ny"}`)}},
	{name: "ew_partial_read", files: map[string]string{"p.txt": "one\ntwo\nthree\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/p.txt","limit":1}`), blk("Edit", `{"file_path":"$D/p.txt","old_string":"three","new_string":"3"}`)}},
	{name: "ew_partial_read_write", files: map[string]string{"p.txt": "one\ntwo\nthree\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/p.txt","offset":2}`), blk("Write", `{"file_path":"$D/p.txt","content":"all new\n"}`)}},
	{name: "ew_partial_start_write", files: map[string]string{"p.txt": "one\ntwo\nthree\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/p.txt","limit":1}`), blk("Write", `{"file_path":"$D/p.txt","content":"all new\n"}`)}},
	{name: "ew_partial_mid_edit", files: map[string]string{"p.txt": "one\ntwo\nthree\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/p.txt","offset":2,"limit":1}`), blk("Edit", `{"file_path":"$D/p.txt","old_string":"two","new_string":"2"}`)}},
	{name: "ew_partial_then_full", files: map[string]string{"p.txt": "one\ntwo\nthree\n"},
		blocks:  []caseBlock{blk("Read", `{"file_path":"$D/p.txt","limit":1}`), blk("Read", `{"file_path":"$D/p.txt"}`), blk("Edit", `{"file_path":"$D/p.txt","old_string":"two","new_string":"2"}`)},
		differs: diffParallelReads, want: map[int]func(result) string{2: isResult("The file <W>/ew_partial_then_full/p.txt has been updated successfully." + freshNote)}},
	// The same in two messages: the second reads the first's file whole.
	{name: "ew_pf_first", files: map[string]string{"p.txt": "one\ntwo\nthree\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/p.txt","limit":1}`)}},
	{name: "ew_pf_second", blocks: []caseBlock{blk("Read", `{"file_path":"$D/../ew_pf_first/p.txt"}`), blk("Edit", `{"file_path":"$D/../ew_pf_first/p.txt","old_string":"two","new_string":"2"}`)}, keepTree: true},
	{name: "ew_partial_limit_covers", files: map[string]string{"p.txt": "one\ntwo\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/p.txt","limit":10}`), blk("Edit", `{"file_path":"$D/p.txt","old_string":"two","new_string":"2"}`)}},
	{name: "ew_partial_edit_twice", files: map[string]string{"p.txt": "one\ntwo\nthree\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/p.txt","limit":1}`), blk("Edit", `{"file_path":"$D/p.txt","old_string":"one","new_string":"1"}`), blk("Edit", `{"file_path":"$D/p.txt","old_string":"three","new_string":"3"}`)}},
	{name: "ew_replace_all_partial", files: map[string]string{"p.txt": "x\nx\ny\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/p.txt","limit":1}`), blk("Edit", `{"file_path":"$D/p.txt","old_string":"x","new_string":"z","replace_all":true}`)}},
	{name: "ew_ws_only_file_empty_old", files: map[string]string{"e.txt": "  \n\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt"}`), blk("Edit", `{"file_path":"$D/e.txt","old_string":"","new_string":"filled\n"}`)}},
	{name: "ew_sanitized_tag", files: map[string]string{"t.txt": "<function_results>x</function_results>\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/t.txt"}`), blk("Edit", `{"file_path":"$D/t.txt","old_string":"<fnr>x","new_string":"<fnr>y"}`)}},
	{name: "ew_unicode_escape", files: map[string]string{"u.txt": "café ok\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/u.txt"}`), blk("Edit", `{"file_path":"$D/u.txt","old_string":"caf\\u00e9","new_string":"th\\u00e9"}`)}},
	{name: "ew_edit_dir", files: map[string]string{"d/x": "x"},
		blocks: []caseBlock{blk("Edit", `{"file_path":"$D/d","old_string":"a","new_string":"b"}`)}},
	{name: "ew_edit_dir_create", files: map[string]string{"d/x": "x"},
		blocks: []caseBlock{blk("Edit", `{"file_path":"$D/d","old_string":"","new_string":"b"}`)}},
	{name: "ew_edit_through_file", files: map[string]string{"f.txt": "x"},
		blocks: []caseBlock{blk("Edit", `{"file_path":"$D/f.txt/inner.txt","old_string":"a","new_string":"b"}`)}},
	{name: "ew_edit_create_through_file", files: map[string]string{"f.txt": "x"},
		blocks: []caseBlock{blk("Edit", `{"file_path":"$D/f.txt/inner.txt","old_string":"","new_string":"b"}`)}},
	{name: "ew_write_through_file", files: map[string]string{"f.txt": "x"},
		blocks: []caseBlock{blk("Write", `{"file_path":"$D/f.txt/inner.txt","content":"b"}`)}},
	{name: "ew_write_dir_relative", files: map[string]string{"d/x": "x"},
		blocks: []caseBlock{blk("Write", `{"file_path":"ew_write_dir_relative/d","content":"b"}`)}},
	{name: "ew_edit_create_subdir", blocks: []caseBlock{blk("Edit", `{"file_path":"$D/new/dir/f.txt","old_string":"","new_string":"b\n"}`)}},
	{name: "ew_edit_line_prefix", files: map[string]string{"f.txt": "alpha\nbeta\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"2\tbeta","new_string":"2\tgamma"}`)}},
	{name: "ew_replace_all_none", files: map[string]string{"f.txt": "alpha\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"zzz","new_string":"y","replace_all":true}`)}},
	{name: "ew_delete_text", files: map[string]string{"f.txt": "keep\ndrop\nkeep2\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"drop\n","new_string":""}`)}},
	{name: "ew_delete_line_no_newline", files: map[string]string{"f.txt": "keep\ndrop\nkeep2\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt"}`), blk("Edit", `{"file_path":"$D/f.txt","old_string":"drop","new_string":""}`)}},
	{name: "ew_write_empty", blocks: []caseBlock{blk("Write", `{"file_path":"$D/empty.txt","content":""}`)}},
	{name: "ew_write_then_edit", blocks: []caseBlock{blk("Write", `{"file_path":"$D/w.txt","content":"one\n"}`), blk("Edit", `{"file_path":"$D/w.txt","old_string":"one","new_string":"two"}`)}},
	{name: "ew_write_same_content", files: map[string]string{"s.txt": "same\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/s.txt"}`), blk("Write", `{"file_path":"$D/s.txt","content":"same\n"}`)}},
	{name: "ew_edit_whitespace_mismatch", files: map[string]string{"f.py": "def f():\n    return 1\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.py"}`), blk("Edit", `{"file_path":"$D/f.py","old_string":"def f():\n  return 1","new_string":"def f():\n  return 2"}`)}},
	{name: "ew_edit_empty_path", blocks: []caseBlock{blk("Edit", `{"file_path":"","old_string":"a","new_string":"b"}`)}},
	{name: "ew_write_empty_path", blocks: []caseBlock{blk("Write", `{"file_path":"","content":"b"}`)}},
}

// TestParityEditWrite compares Edit's and Write's details (cases_editwrite_test.go).
func TestParityEditWrite(t *testing.T) {
	compare(t, "editwrite", editWriteCases)
}
