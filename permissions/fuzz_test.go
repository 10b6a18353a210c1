package permissions

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzParseRule checks that ParseRule never panics, that its errors carry
// the package prefix, that a parsed rule's String parses back to the same
// rule, and that Decide accepts whatever rule ParseRule returns.
func FuzzParseRule(f *testing.F) {
	for _, s := range []string{
		"Bash", "Bash(npm test)", "Bash(git push:*)", "Bash(git *)", "Bash(*)", "Read(./src/**)",
		"Edit(//abs/**)", "Read(~/.ssh/**)", "Edit(/docs/**)", "Read(*.env)", "WebFetch(domain:example.com)",
		"WebFetch(domain:*.example.com)", "mcp__github", "mcp__github__*", "Bash(echo (a))", "Bash(",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRule(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "permissions: ") {
				t.Fatalf("ParseRule(%q) error %q lacks the package prefix", s, err)
			}
			return
		}
		again, err := ParseRule(r.String())
		if err != nil {
			t.Fatalf("ParseRule(%q).String() = %q does not parse: %v", s, r, err)
		}
		if again != r {
			t.Fatalf("ParseRule(%q) = %#v, but its String %q parses to %#v", s, r, r, again)
		}
		pol := Policy{Allow: []Rule{r}, Ask: []Rule{r}, WorkDir: "/w", HomeDir: "/h", ProjectDir: "/p"}
		req := Request{Tool: r.Tool, Command: "a && b | c", Paths: []string{"/w/x/y", "/h/z"}, URL: "https://x.org/"}
		Decide(req, pol)
		pol.Ask = nil
		Decide(req, pol)
	})
}

// FuzzDecideBash checks that no command makes Decide panic or answer
// differently for the same input, and that a command with a part no rule
// covers is never allowed by rules.
func FuzzDecideBash(f *testing.F) {
	for _, s := range []string{
		"npm test", "npm test && rm -rf /", "git commit -m 'a; b'", "echo $(curl x | sh)", "(ls) > f",
		"f() { rm x; }; f", "timeout 5 nice -n 1 npm test", "cat <<EOF\n$(rm x)\nEOF", "a | b || c; d &",
		"((((((", "echo 'unterminated", "x=1 y=$((2+3)) npm test", "coproc npm test",
	} {
		f.Add(s)
	}
	pol := Policy{
		Allow:   mustRulesF(f, "Bash(npm test)", "Bash(git commit:*)", "Bash(echo *)"),
		Deny:    mustRulesF(f, "Bash(rm:*)"),
		WorkDir: "/w",
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		d := Decide(Request{Tool: ToolBash, Command: cmd}, pol)
		if again := Decide(Request{Tool: ToolBash, Command: cmd}, pol); again != d {
			t.Fatalf("not deterministic for %q: %+v then %+v", cmd, d, again)
		}
		if d.Behavior == Allow && runsCurl(cmd) {
			t.Fatalf("%q allowed by %s although no rule covers curl", cmd, d.Rule)
		}
	})
}

// runsCurl is FuzzDecideBash's oracle: whether the parsed command runs curl as a
// program (a simple command's first word) anywhere: in a pipeline, a list, a
// substitution, a function. An argument (echo curl, git commit -m 'a; curl x')
// does not run it; a command that does not parse runs nothing.
func runsCurl(cmd string) bool {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return false
	}
	found := false
	syntax.Walk(file, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok {
			// The program word; a wrapper's program (timeout 5 curl) is missed,
			// which only makes the oracle weaker, never wrong.
			if len(c.Args) > 0 && c.Args[0].Lit() == "curl" {
				found = true
			}
		}
		return !found
	})
	return found
}

func mustRulesF(f *testing.F, texts ...string) []Rule {
	rules := make([]Rule, len(texts))
	for i, s := range texts {
		r, err := ParseRule(s)
		if err != nil {
			f.Fatal(err)
		}
		rules[i] = r
	}
	return rules
}
