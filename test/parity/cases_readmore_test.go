package parity

import (
	"strings"
	"testing"
)

// Read details (issue 28, area 4): notebooks, near-miss names, long files, empty
// files with an offset.

// diffJSONParser: the parser's own words for a notebook that is not JSON.
const diffJSONParser = "a notebook that is not JSON: the error ends with the JSON parser's own message, JavaScript's in Claude Code, Go's in toolpipe"

var readMoreCases = []parityCase{
	{name: "rd_notebook", fixtures: map[string]string{"n.ipynb": "notebooks/basic.ipynb"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/n.ipynb"}`)}},
	{name: "rd_notebook_range", fixtures: map[string]string{"n.ipynb": "notebooks/basic.ipynb"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/n.ipynb","offset":2,"limit":1}`)}},
	{name: "rd_notebook_bad", files: map[string]string{"n.ipynb": "{not json"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/n.ipynb"}`)},
		differs: diffJSONParser, want: map[int]func(result) string{0: isErrorWith("Notebook file is not valid JSON (it may be truncated, corrupted, or still being written): invalid character")}},
	{name: "rd_notebook_r", fixtures: map[string]string{"n.ipynb": "notebooks/r_lang.ipynb"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/n.ipynb"}`)},
		differs: diffImages, want: map[int]func(result) string{0: contains("[image output not shown: toolpipe's tool results are text]")}},
	{name: "rd_notebook_bad_cells", fixtures: map[string]string{"n.ipynb": "notebooks/bad_cells.ipynb"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/n.ipynb"}`)}},
	{name: "rd_notebook_empty", fixtures: map[string]string{"n.ipynb": "notebooks/empty.ipynb"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/n.ipynb"}`)}},
	{name: "rd_notebook_then_edit", fixtures: map[string]string{"n.ipynb": "notebooks/basic.ipynb"},
		blocks: []caseBlock{blk("Read", `{"file_path":"$D/n.ipynb"}`), blk("Edit", `{"file_path":"$D/n.ipynb","old_string":"x * 2","new_string":"x * 3"}`)}},
	{name: "rd_near_case", files: map[string]string{"README.md": "hi\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/readme.md"}`)}},
	{name: "rd_near_ext", files: map[string]string{"main.go": "package main\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/main.py"}`)}},
	{name: "rd_near_typo", files: map[string]string{"config.yaml": "a: 1\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/confg.yaml"}`)}},
	{name: "rd_near_dir", files: map[string]string{"src/app.js": "x\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/app.js"}`)}},
	{name: "rd_missing_dir", blocks: []caseBlock{blk("Read", `{"file_path":"$D/nodir/x.txt"}`)}},
	{name: "rd_2100_lines", files: map[string]string{"m.txt": manyLines(2100)}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/m.txt"}`)}},
	{name: "rd_2100_limit", files: map[string]string{"m.txt": manyLines(2100)}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/m.txt","offset":10,"limit":2050}`)}},
	{name: "rd_empty_offset", files: map[string]string{"e.txt": ""}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt","offset":5}`)}},
	{name: "rd_empty_limit", files: map[string]string{"e.txt": ""}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/e.txt","limit":3}`)}},
	{name: "rd_newline_only", files: map[string]string{"n.txt": "\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/n.txt"}`)}},
	{name: "rd_offset_last", files: map[string]string{"a.txt": "l1\nl2\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","offset":3}`)}},
	{name: "rd_offset_one_past", files: map[string]string{"a.txt": "l1\nl2\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/a.txt","offset":4}`)}},
	{name: "rd_spaces_only", files: map[string]string{"s.txt": "   \n\t\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/s.txt"}`)}},
	{name: "rd_long_lines_many", files: map[string]string{"l.txt": strings.Repeat(strings.Repeat("z", 2100)+"\n", 3)}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/l.txt","limit":2}`)}},
	{name: "rd_dotdot", files: map[string]string{"a.txt": "up\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/sub/../a.txt"}`)}},
	{name: "rd_through_file", files: map[string]string{"f.txt": "x\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/f.txt/inner.txt"}`)}},
	{name: "rd_glob_through_file", files: map[string]string{"f.txt": "x\n"}, blocks: []caseBlock{blk("Glob", `{"pattern":"*","path":"$D/f.txt/sub"}`)}},
	{name: "rd_grep_through_file", files: map[string]string{"f.txt": "x\n"}, blocks: []caseBlock{blk("Grep", `{"pattern":"x","path":"$D/f.txt/sub"}`)}},
	{name: "rd_sibling_dir", files: map[string]string{"src/app.js": "x\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/../../rd_sibling_dir/src/app.js"}`)}},
	{name: "rd_tilde", blocks: []caseBlock{blk("Read", `{"file_path":"~/definitely-missing-parity.txt"}`)}},
}

// TestParityReadDetails compares notebooks, near-miss names and long or empty files
// (cases_readmore_test.go).
func TestParityReadDetails(t *testing.T) {
	compare(t, "readmore", readMoreCases)
}
