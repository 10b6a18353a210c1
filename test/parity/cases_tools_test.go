package parity

import "strings"

// The cases of the built-in tools but Glob and Grep (cases_search_test.go): each is
// one assistant message, in a directory of its own.

// Deliberate differences, each with the reason (README, "Compatibility with Claude
// Code").
const (
	diffOffsetZero = "Claude Code 2.1.328 numbers lines from the offset, so offset 0 labels line 1 as 0; toolpipe takes 0 as the start and labels lines by their number"
	diffTokens     = "over 25,000 tokens Claude Code 2.1.328 cuts the content to fit, silently; toolpipe refuses with a message pointing at offset/limit and Grep (issue 14)"
	diffImages     = "toolpipe's tool results are text: Claude Code sends an image or document block, toolpipe says what to do instead"
	diffReadFirst  = "toolpipe keeps the rule that an existing file is Read before Edit or Write change it (DESIGN §3.9, the design's context modifiers); Claude Code 2.1.328 no longer enforces it"
	diffCascade    = "the design (§3.6) cancels the siblings of a failed Bash call; Claude Code 2.1.328 in print mode lets them run"
	diffTimeout    = "a Bash call over its timeout: Claude Code moves it to the background; toolpipe kills it and says so (toolpipe runs a command in the background only when the call asks, with run_in_background in a session: background_test.go)"
	diffStale      = "Claude Code notes that a file changed on disk since it was read; toolpipe keeps no file timestamps"
)

var readCases = []parityCase{
	{name: "read_three", files: map[string]string{"a.txt": "alpha\nbeta TODO\ngamma\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt"}`)}},
	{name: "read_no_newline", files: map[string]string{"a.txt": "alpha\nbeta"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt"}`)}},
	{name: "read_range", files: map[string]string{"a.txt": "l1\nl2\nl3\nl4\nl5\nl6\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","offset":2,"limit":3}`)}},
	{name: "read_offset_zero", files: map[string]string{"a.txt": "l1\nl2\nl3\n"},
		blocks:  []caseBlock{blk("Read", `{"file_path":"$D/a.txt","offset":0,"limit":2}`)},
		differs: diffOffsetZero, want: map[int]func(result) string{0: isResult("1\tl1\n2\tl2")}},
	{name: "read_offset_zero_only", files: map[string]string{"a.txt": "l1\nl2\n"},
		blocks:  []caseBlock{blk("Read", `{"file_path":"$D/a.txt","offset":0}`)},
		differs: diffOffsetZero, want: map[int]func(result) string{0: isResult("1\tl1\n2\tl2\n3\t")}},
	{name: "read_negative", files: map[string]string{"a.txt": "l1\nl2\nl3\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","offset":-1,"limit":-1}`)}},
	{name: "read_past_end", files: map[string]string{"a.txt": "l1\nl2\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","offset":10}`)}},
	{name: "read_empty", files: map[string]string{"e.txt": ""},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt"}`)}},
	{name: "read_missing", blocks: []caseBlock{blk("Read", `{"file_path":"$D/missing.txt"}`)}},
	{name: "read_dir", files: map[string]string{"sub/x": "x"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/sub"}`)}},
	{name: "read_empty_path", blocks: []caseBlock{blk("Read", `{"file_path":""}`)}},
	{name: "read_binary", files: map[string]string{"b.bin": "\x00\x01\x02ELF\x00\x00"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/b.bin"}`)}},
	{name: "read_nul_text", files: map[string]string{"b.txt": "ab\x00cd\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/b.txt"}`)}},
	{name: "read_image", files: map[string]string{"i.png": pngPixel},
		blocks:  []caseBlock{blk("Read", `{"file_path":"$D/i.png"}`)},
		differs: diffImages, want: map[int]func(result) string{0: isErrorWith("<tool_use_error>This tool cannot show images here")}},
	{name: "read_pdf", files: map[string]string{"x.pdf": "%PDF-1.4\nnot really\n"},
		blocks:  []caseBlock{blk("Read", `{"file_path":"$D/x.pdf","pages":"1"}`)},
		differs: diffImages, want: map[int]func(result) string{0: isErrorWith("<tool_use_error>This tool cannot show PDF pages here")}},
	{name: "read_bad_pages", files: map[string]string{"x.pdf": "%PDF-1.4\nnot really\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/x.pdf","pages":"abc"}`)}},
	{name: "read_pages_text", files: map[string]string{"a.txt": "one\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","pages":"1-2"}`)}},
	{name: "read_long_line", files: map[string]string{"l.txt": strings.Repeat("x", 2500) + "\nshort\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/l.txt"}`)}},
	{name: "read_huge_line", files: map[string]string{"l.txt": strings.Repeat("y", 30000) + "\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/l.txt"}`)}},
	{name: "read_many_lines", files: map[string]string{"m.txt": manyLines(2100)},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/m.txt","offset":2095}`)}},
	{name: "read_large_file", files: map[string]string{"big.txt": strings.Repeat("0123456789abcdef\n", 17000)},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/big.txt"}`)}},
	{name: "read_large_range", files: map[string]string{"big.txt": strings.Repeat("0123456789abcdef\n", 17000)},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/big.txt","offset":3,"limit":2}`)}},
	{name: "read_allow_large", files: map[string]string{"big.txt": strings.Repeat("0123456789abcdef\n", 17000)},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/big.txt","allow_large":true}`)}},
	{name: "read_many_tokens", files: map[string]string{"t.txt": strings.Repeat("word ", 24000) + "\n"},
		blocks:  []caseBlock{blk("Read", `{"file_path":"$D/t.txt"}`)},
		differs: diffTokens, want: map[int]func(result) string{0: isErrorWith("File content (30002 tokens) exceeds maximum allowed tokens (25000). Use offset and limit parameters")}},
	{name: "read_relative", files: map[string]string{"r.txt": "rel\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"read_relative/r.txt"}`)}},
	{name: "read_cjk", files: map[string]string{"c.txt": "你好，世界\n第二行\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/c.txt"}`)}},
	{name: "read_crlf", files: map[string]string{"w.txt": "one\r\ntwo\r\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/w.txt"}`)}},
	{name: "read_bom", files: map[string]string{"b.txt": "\ufeffbom\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/b.txt"}`)}},
	{name: "read_tabs", files: map[string]string{"t.txt": "\tindented\n  two\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/t.txt","offset":2,"limit":5}`)}},
	{name: "read_twice", files: map[string]string{"a.txt": "same\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt"}`), blk("Read", `{"file_path":"$D/a.txt"}`)}},
}

var writeCases = []parityCase{
	{name: "write_new", blocks: []caseBlock{blk("Write", `{"file_path":"$D/new.txt","content":"hello\n"}`)}},
	{name: "write_new_subdir", blocks: []caseBlock{blk("Write", `{"file_path":"$D/x/y/new.txt","content":"hello\n"}`)}},
	{name: "write_unread", files: map[string]string{"old.txt": "old\n"},
		blocks:  []caseBlock{blk("Write", `{"file_path":"$D/old.txt","content":"new\n"}`)},
		differs: diffReadFirst, want: map[int]func(result) string{0: isErrorWith("<tool_use_error>File has not been read yet.")}},
	{name: "write_after_read", files: map[string]string{"old.txt": "old\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/old.txt"}`), blk("Write", `{"file_path":"$D/old.txt","content":"new\n"}`)}},
	{name: "write_dir", files: map[string]string{"d/x": "x"},
		blocks: []caseBlock{blk("Write", `{"file_path":"$D/d","content":"new\n"}`)}},
	{name: "write_relative", blocks: []caseBlock{blk("Write", `{"file_path":"write_relative/r.txt","content":"r\n"}`)}},
}

var editCases = []parityCase{
	{name: "edit_unread", files: map[string]string{"e.txt": "alpha\n"},
		blocks:  []caseBlock{blk("Edit", `{"file_path":"$D/e.txt","old_string":"alpha","new_string":"beta"}`)},
		differs: diffReadFirst, want: map[int]func(result) string{0: isErrorWith("<tool_use_error>File has not been read yet.")}},
	{name: "edit_ok", files: map[string]string{"e.txt": "alpha\nbeta\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt"}`), blk("Edit", `{"file_path":"$D/e.txt","old_string":"alpha","new_string":"ALPHA"}`)}},
	{name: "edit_not_found", files: map[string]string{"e.txt": "alpha\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt"}`), blk("Edit", `{"file_path":"$D/e.txt","old_string":"zeta","new_string":"eta"}`)}},
	{name: "edit_ambiguous", files: map[string]string{"e.txt": "x\nx\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt"}`), blk("Edit", `{"file_path":"$D/e.txt","old_string":"x","new_string":"y"}`)}},
	{name: "edit_replace_all", files: map[string]string{"e.txt": "x\nx\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt"}`), blk("Edit", `{"file_path":"$D/e.txt","old_string":"x","new_string":"y","replace_all":true}`)}},
	{name: "edit_same", files: map[string]string{"e.txt": "x\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt"}`), blk("Edit", `{"file_path":"$D/e.txt","old_string":"x","new_string":"x"}`)}},
	{name: "edit_missing", blocks: []caseBlock{blk("Edit", `{"file_path":"$D/none.txt","old_string":"a","new_string":"b"}`)}},
	{name: "edit_create", blocks: []caseBlock{blk("Edit", `{"file_path":"$D/created.txt","old_string":"","new_string":"fresh\n"}`)}},
	{name: "edit_create_exists", files: map[string]string{"e.txt": "there\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt"}`), blk("Edit", `{"file_path":"$D/e.txt","old_string":"","new_string":"fresh\n"}`)}},
	{name: "edit_stale", files: map[string]string{"e.txt": "one\n"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt"}`), blk("Bash", `{"command":"echo changed >> edit_stale/e.txt"}`),
			blk("Edit", `{"file_path":"$D/e.txt","old_string":"one","new_string":"two"}`)},
		differs: diffStale, want: map[int]func(result) string{2: isResult("The file <W>/edit_stale/e.txt has been updated successfully. (file state is current in your context — no need to Read it back)")}},
}

var bashCases = []parityCase{
	{name: "bash_echo", blocks: []caseBlock{blk("Bash", `{"command":"echo hi","description":"Say hi"}`)}},
	{name: "bash_exit", blocks: []caseBlock{blk("Bash", `{"command":"echo out; exit 3"}`)}},
	{name: "bash_stderr", blocks: []caseBlock{blk("Bash", `{"command":"echo out; echo err >&2"}`)}},
	{name: "bash_stderr_exit", blocks: []caseBlock{blk("Bash", `{"command":"echo out; echo err >&2; exit 1"}`)}},
	{name: "bash_silent", blocks: []caseBlock{blk("Bash", `{"command":"true"}`)}},
	{name: "bash_empty", blocks: []caseBlock{blk("Bash", `{"command":""}`)}},
	{name: "bash_timeout", blocks: []caseBlock{blk("Bash", `{"command":"echo started; sleep 4","timeout":1000}`)},
		differs: diffTimeout, want: map[int]func(result) string{0: isErrorWith("Command timed out after 1000ms and was killed\nstarted")}},
	{name: "bash_timeout_zero", blocks: []caseBlock{blk("Bash", `{"command":"echo z","timeout":0}`)}},
	{name: "bash_timeout_over_max", blocks: []caseBlock{blk("Bash", `{"command":"echo a","timeout":900000}`)}},
	{name: "bash_large", blocks: []caseBlock{blk("Bash", `{"command":"seq 1 20000"}`)}},
	{name: "bash_trailing_blank", blocks: []caseBlock{blk("Bash", `{"command":"printf 'a\\n\\n\\n'"}`)}},
	{name: "bash_sibling", blocks: []caseBlock{blk("Bash", `{"command":"exit 1"}`), blk("Bash", `{"command":"sleep 1; echo late"}`)},
		differs: diffCascade, want: map[int]func(result) string{1: isErrorWith("Cancelled: parallel tool call Bash(exit 1) errored")}},
	{name: "bash_ro_sibling", blocks: []caseBlock{blk("Bash", `{"command":"ls /nonexistent-parity"}`), blk("Bash", `{"command":"sleep 3 && echo late"}`)},
		differs: diffCascade, want: map[int]func(result) string{1: isErrorWith("Cancelled: parallel tool call Bash(ls /nonexistent-parity) errored")}},
}

var errorCases = []parityCase{
	{name: "unknown_tool", blocks: []caseBlock{blk("Frobnicate", `{"x":1}`)}},
	{name: "schema_wrong_field", blocks: []caseBlock{blk("Read", `{"path":"/tmp/x"}`)}},
	{name: "schema_wrong_type", blocks: []caseBlock{blk("Read", `{"file_path":"$D/a","limit":"ten"}`)}},
	{name: "schema_float", blocks: []caseBlock{blk("Read", `{"file_path":"$D/a","limit":1.5}`)}},
	{name: "schema_null", blocks: []caseBlock{blk("Read", `{"file_path":"$D/a","offset":null}`)}},
	{name: "schema_bash_missing", blocks: []caseBlock{blk("Bash", `{"description":"nothing"}`)}},
	{name: "schema_bash_batch", blocks: []caseBlock{blk("Bash", `{"command":"echo a","bogus":true}`), blk("Bash", `{"command":"echo b"}`)}},
	{name: "schema_edit_types", blocks: []caseBlock{blk("Edit", `{"file_path":"$D/a","old_string":1,"new_string":"b","replace_all":"yes"}`)}},
	{name: "schema_edit_missing", blocks: []caseBlock{blk("Edit", `{"file_path":"$D/w.txt","old_string":"a"}`)}},
	{name: "schema_write_missing", blocks: []caseBlock{blk("Write", `{"file_path":"$D/w.txt"}`)}},
}

// builtinCases are all the cases above, in the order Claude Code runs them.
func builtinCases() []parityCase {
	var all []parityCase
	for _, cs := range [][]parityCase{readCases, writeCases, editCases, bashCases, errorCases} {
		all = append(all, cs...)
	}
	return all
}

// pngPixel is a 1x1 PNG.
const pngPixel = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82"

func manyLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString("line ")
		b.WriteString(itoa(i))
		b.WriteByte('\n')
	}
	return b.String()
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}
