package permissions

import (
	"testing"

	"github.com/toolpipe/toolpipe/tool/readonly"
)

func BenchmarkDecide(b *testing.B) {
	var rules []Rule
	parse := func(texts ...string) []Rule {
		rules = nil
		for _, s := range texts {
			r, err := ParseRule(s)
			if err != nil {
				b.Fatal(err)
			}
			rules = append(rules, r)
		}
		return rules
	}
	pol := Policy{
		Allow: parse("Bash(npm test)", "Bash(npm run lint:*)", "Bash(git status)", "Bash(git diff *)",
			"Bash(go test *)", "Read(~/.config/**)", "Edit(./src/**)", "WebFetch(domain:*.golang.org)", "mcp__github"),
		Deny:           parse("Bash(rm -rf:*)", "Bash(git push --force:*)", "Read(*.env)", "Read(./secrets/**)"),
		Ask:            parse("Bash(git push:*)", "WebFetch(domain:pastebin.com)"),
		ProjectDir:     "/proj",
		WorkDir:        "/proj",
		HomeDir:        "/home/u",
		AdditionalDirs: []string{"/shared/lib"},
	}
	reqs := []Request{
		{Tool: ToolBash, Command: "npm test && npm run lint -- --fix && git status"},
		{Tool: ToolBash, Command: "git log --oneline -n 20", ReadOnly: true},
		{Tool: ToolBash, Command: "go test ./... 2>&1 | tail -50"},
		{Tool: ToolRead, Paths: []string{"/proj/src/main.go"}},
		{Tool: ToolEdit, Paths: []string{"/proj/src/a/b/c.go"}},
		{Tool: ToolGrep, Paths: []string{"/proj"}},
		{Tool: ToolWebFetch, URL: "https://pkg.go.dev.golang.org/x"},
		{Tool: "mcp__github__create_issue"},
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range reqs {
			Decide(r, pol)
		}
	}
}

// BenchmarkDecideBashReads: read-only commands whose reads are checked against
// the working directories, the state directory and Read deny rules (patterns
// and recursive reads intersected with the rules).
func BenchmarkDecideBashReads(b *testing.B) {
	var deny []Rule
	for _, s := range []string{"Read(*.env)", "Read(./secrets/**)", "Read(~/.aws)"} {
		r, err := ParseRule(s)
		if err != nil {
			b.Fatal(err)
		}
		deny = append(deny, r)
	}
	pol := Policy{Deny: deny, WorkDir: "/proj", HomeDir: "/home/u", PrivateDirs: []string{"/home/u/.local/state/toolpipe"},
		ReadOnlyCommand: readonly.IsReadOnly, BashPaths: func(string) ([]string, bool) { return nil, false }} // as the Turn passes it: the resolved paths
	var reqs []Request
	for _, c := range []string{"git log --oneline -n 20", "cat README.md src/*.go", "grep -rn TODO src",
		"rg -n 'func main' --type go", "find . -name '*.go' -newer go.mod", "ls -la && wc -l *.go"} {
		reqs = append(reqs, Request{Tool: ToolBash, Command: c, ReadOnly: readonly.IsReadOnly(c)})
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range reqs {
			Decide(r, pol)
		}
	}
}
