package parity

import "testing"

// Glob's pattern semantics (issue 28, area 5).

var globFiles = map[string]string{
	"a.go":              "package a\n",
	"sub/b.go":          "package sub\n",
	"sub/deep/c.go":     "package deep\n",
	"x.txt":             "x\n",
	".hidden.go":        "package hidden\n",
	".cfg/h.go":         "package cfg\n",
	"node_modules/m.go": "package m\n",
	"ignored/i.go":      "package i\n",
	"skip.go":           "package skip\n",
	".gitignore":        "ignored/\nskip.go\n",
	"README.md":         "# r\n",
}

var gitFiles = func() map[string]string {
	m := map[string]string{".git/HEAD": "ref: refs/heads/main\n"}
	for k, v := range globFiles {
		m[k] = v
	}
	return m
}()

// diffDotSlash: a pattern that starts with "./".
const diffDotSlash = "a pattern starting \"./\": ripgrep's globs never match it, so Claude Code 2.1.328 finds nothing; toolpipe reads \"./src/*.go\" as \"src/*.go\""

var globCases = []parityCase{
	{name: "gl_noslash", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"*.go","path":"$D"}`)}},
	{name: "gl_noslash_git", files: gitFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"*.go","path":"$D"}`)}},
	{name: "gl_doublestar_git", files: gitFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"**/*.go","path":"$D"}`)}},
	{name: "gl_slash", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"sub/*.go","path":"$D"}`)}},
	{name: "gl_dot_slash", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"./sub/*.go","path":"$D"}`)},
		differs: diffDotSlash, want: map[int]func(result) string{0: isResult("gl_dot_slash/sub/b.go")}},
	{name: "gl_all", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"**","path":"$D"}`)}},
	{name: "gl_star", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"*","path":"$D"}`)}},
	{name: "gl_hidden", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":".*","path":"$D"}`)}},
	{name: "gl_hidden_dir", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":".cfg/*","path":"$D"}`)}},
	{name: "gl_braces", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"*.{md,txt}","path":"$D"}`)}},
	{name: "gl_case", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"*.GO","path":"$D"}`)}},
	{name: "gl_readme_case", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"readme.md","path":"$D"}`)}},
	{name: "gl_file_path", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"*","path":"$D/a.go"}`)}},
	{name: "gl_abs_pattern", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"$D/sub/**/*.go"}`)}},
	{name: "gl_dir_name", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"sub","path":"$D"}`)}},
	{name: "gl_dir_slash", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"sub/","path":"$D"}`)}},
	{name: "gl_node_modules", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"node_modules/*.go","path":"$D"}`)}},
	{name: "gl_ignored_explicit", files: gitFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"ignored/*.go","path":"$D"}`)}},
	{name: "gl_question", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"?.go","path":"$D"}`)}},
	{name: "gl_class", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"[ab].go","path":"$D"}`)}},
	{name: "gl_many", files: manyFiles(120), blocks: []caseBlock{blk("Glob", `{"pattern":"*.txt","path":"$D"}`)}},
	{name: "gl_bad", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"[","path":"$D"}`)}},
	{name: "gl_empty_pattern", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"","path":"$D"}`)}},
	{name: "gl_bad_brace", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"{a,b","path":"$D"}`)}},
	{name: "gl_bad_unopened", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"a}.go","path":"$D"}`)}},
	{name: "gl_bad_range", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"[z-a].go","path":"$D"}`)}},
	{name: "gl_bad_escape", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"a\\","path":"$D"}`)}},
	{name: "gl_star_star_ext", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"**.go","path":"$D"}`)}},
	{name: "gl_star_in_name", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"a**.go","path":"$D"}`)}},
	{name: "gl_nested_braces", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"{a,{b,c}}.go","path":"$D"}`)}},
	{name: "gl_leading_slash", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"/sub/*.go","path":"$D"}`)}},
	{name: "gl_all_git", files: gitFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"**","path":"$D"}`)}},
	{name: "gl_missing_near", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"*","path":"$D/../gl_missing_near_x"}`)}},
	{name: "gl_deep_anchor", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"deep/*.go","path":"$D"}`)}},
	{name: "gl_sub_noslash", files: globFiles, blocks: []caseBlock{blk("Glob", `{"pattern":"c.go","path":"$D/sub"}`)}},
}

func manyFiles(n int) map[string]string {
	m := map[string]string{}
	for i := 0; i < n; i++ {
		m["f"+itoa(1000+i)+".txt"] = "x\n"
	}
	return m
}

// TestParityGlob compares Glob's pattern semantics (cases_glob_test.go).
func TestParityGlob(t *testing.T) {
	compare(t, "glob", globCases)
}
