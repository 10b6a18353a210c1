package parity

// The Glob and Grep cases. Their code belongs to the search work (issue 15 item 4,
// issue 17's Glob/Grep parity). Claude Code 2.1.328's answers: paths relative to the working directory; Grep's files_with_matches newest
// first; content mode with line numbers by default ("path:2:text", context lines
// "1-text"); count mode ends with "\n\nFound N total occurrences across M files.";
// head_limit and offset end with "\n\n[Showing results with pagination = limit: 2]"
// (offset: 1); a missing path is "Path does not exist: P. Note: your current working
// directory is W." (Glob: "Directory does not exist: …"); a bad pattern is "Search
// failed — ripgrep rejected the pattern, glob, or file type without searching:\nrg: …";
// Grep accepts "context" (= -C) and "offset".

// diffRgVersion: ripgrep's own error text, which both pass on, differs between
// versions; Claude Code ships its ripgrep, toolpipe runs the machine's (or its Go
// engine, which words it otherwise).
const diffRgVersion = "ripgrep's own error text depends on its version: Claude Code ships ripgrep 14, toolpipe runs the machine's (Debian 12: 13) or its Go engine"

var searchFiles = map[string]string{
	"a.go":        "package a\n// TODO one\nfunc A() {}\n",
	"b.txt":       "hello\nTODO two\nTodo three\n",
	"sub/c.go":    "package sub\n\nfunc C() {\n\t// todo four\n}\n",
	"sub/d/e.md":  "# title\nnothing\n",
	"multi.txt":   "start\nmiddle\nend\n",
	".hidden.txt": "TODO hidden\n",
}

var searchCases = []parityCase{
	{name: "glob_go", files: searchFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"**/*.go","path":"$D"}`)}},
	{name: "glob_top", files: searchFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"*.txt","path":"$D"}`)}},
	{name: "glob_relative", files: searchFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"glob_relative/sub/**/*.md"}`)}},
	{name: "glob_none", files: searchFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"*.rs","path":"$D"}`)}},
	{name: "glob_missing_dir", blocks: []caseBlock{blk("Glob", `{"pattern":"*","path":"$D/nope"}`)}},
	{name: "grep_files", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"TODO","path":"$D"}`)}},
	{name: "grep_content", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"TODO","path":"$D","output_mode":"content"}`)}},
	{name: "grep_content_no_n", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"TODO","path":"$D/b.txt","output_mode":"content","-n":false}`)}},
	{name: "grep_count", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"(?i)todo","path":"$D","output_mode":"count"}`)}},
	{name: "grep_insensitive", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"todo","path":"$D","-i":true}`)}},
	{name: "grep_glob", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"func","path":"$D","glob":"*.go","output_mode":"content"}`)}},
	{name: "grep_type", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"title","path":"$D","type":"md"}`)}},
	{name: "grep_context", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"middle","path":"$D/multi.txt","output_mode":"content","-C":1}`)}},
	{name: "grep_context_field", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"middle","path":"$D/multi.txt","output_mode":"content","context":1}`)}},
	{name: "grep_head_limit", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"e","path":"$D","output_mode":"content","head_limit":2}`)}},
	{name: "grep_offset", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"e","path":"$D/multi.txt","output_mode":"content","offset":1}`)}},
	{name: "grep_multiline", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"start\\nmiddle","path":"$D","multiline":true,"output_mode":"content"}`)}},
	{name: "grep_none", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"nothing-matches-this","path":"$D"}`)}},
	{name: "grep_bad_regex", files: searchFiles, blocks: []caseBlock{blk("Grep", `{"pattern":"(unclosed","path":"$D"}`)},
		differs: diffRgVersion, want: map[int]func(result) string{0: isErrorWith("Search failed — ripgrep rejected the pattern, glob, or file type without searching:\n")}},
	{name: "grep_missing_path", blocks: []caseBlock{blk("Grep", `{"pattern":"x","path":"$D/nope"}`)}},
}
