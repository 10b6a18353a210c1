package permissions

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestParseRuleErrors(t *testing.T) {
	cases := []struct{ rule, want string }{
		{"", "empty rule"},
		{"   ", "empty rule"},
		{"Bash(npm test", "unbalanced parentheses: the rule must end with ')'"},
		{"Bash npm test)", "')' without '('"},
		{"Bash(echo (a)", "1 '(' not closed"},
		{"Bash(echo a))", "closes the rule early"},
		{"Bash(a)(b)", "closes the rule early"},
		{"(npm test)", "empty tool name"},
		{"Bash ()", `invalid tool name "Bash "`},
		{"Ba*sh", "invalid tool name"},
		{"Bash()", "empty specifier; write Bash alone"},
		{"Read(  )", "empty specifier"},
		{"Bash(:*)", "needs a command before ':*'"},
		{"Bash(git * push:*)", "cannot also contain '*'"},
		{"Read(../secrets/**)", "'..' is not allowed"},
		{"Edit(src//x)", "empty path segment"},
		{"Read(src/[a)", "invalid glob pattern"},
		{"Edit(src/{a,b)", "invalid glob pattern"},
		{"WebFetch(example.com)", "must be domain:HOST"},
		{"WebFetch(domain:)", "empty host"},
		{"WebFetch(domain:https://example.com)", "not a URL"},
		{"WebFetch(domain:example.com/path)", "invalid host"},
		{"WebFetch(domain:a.*.com)", "invalid host"},
		{"WebFetch(domain:example.com:8080)", "invalid host"},
		{"mcp__", "empty MCP server name"},
		{"mcp____tool", "empty MCP server name"},
		{"mcp__github__", "empty MCP tool name"},
		{"mcp__github(x)", "MCP rules take no specifier"},
		{"mcp__github__get__*", "only allowed as the whole tool name"},
		{"mcp__github__get_*", "invalid tool name"},
		{"bash(ls)", "did you mean Bash?"},
		{"Task(explore)", "known tools: Bash, Read"},
	}
	for _, tc := range cases {
		_, err := ParseRule(tc.rule)
		if err == nil {
			t.Errorf("ParseRule(%q) = nil error; want %q", tc.rule, tc.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), "permissions: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseRule(%q) error = %q; want it prefixed \"permissions: \" and containing %q", tc.rule, err, tc.want)
		}
	}
}

func TestParseRuleUnknownTool(t *testing.T) {
	for _, s := range []string{"Task", "WebSearch", "NotebookEdit(x.ipynb)", "read(x)"} {
		if _, err := ParseRule(s); !errors.Is(err, ErrUnknownTool) {
			t.Errorf("ParseRule(%q) error = %v; want ErrUnknownTool", s, err)
		}
	}
	if _, err := ParseRule("Bash("); errors.Is(err, ErrUnknownTool) {
		t.Errorf("a syntax error must not be ErrUnknownTool")
	}
}

func TestParseRuleNormalises(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Bash", "Bash"},
		{"  Bash(npm test)  ", "Bash(npm test)"},
		{"Bash( npm test )", "Bash(npm test)"},
		{"Bash(*)", "Bash"},
		{"Bash(git push :*)", "Bash(git push:*)"},
		{"Read(./src/**)", "Read(./src/**)"},
		{"Edit(//abs/**)", "Edit(//abs/**)"},
		{"Read(~/.ssh/**)", "Read(~/.ssh/**)"},
		{"WebFetch(domain:Example.COM.)", "WebFetch(domain:example.com)"},
		{"WebFetch(domain:*.Example.com)", "WebFetch(domain:*.example.com)"},
		{"mcp__github__*", "mcp__github"},
		{"mcp__github__create_issue", "mcp__github__create_issue"},
		{"mcp__my-server", "mcp__my-server"},
		{"Bash(echo (a))", "Bash(echo (a))"},
	}
	for _, tc := range cases {
		r, err := ParseRule(tc.in)
		if err != nil {
			t.Errorf("ParseRule(%q): %v", tc.in, err)
			continue
		}
		if r.String() != tc.want {
			t.Errorf("ParseRule(%q).String() = %q; want %q", tc.in, r, tc.want)
		}
	}
	a, _ := ParseRule("Bash(*)")
	b, _ := ParseRule("Bash")
	if a != b {
		t.Errorf("Bash(*) and Bash parse to different rules: %#v %#v", a, b)
	}
}

func TestParseMode(t *testing.T) {
	for i, name := range []string{"default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"} {
		m, err := ParseMode(name)
		if err != nil || m != Mode(i) || m.String() != name {
			t.Errorf("ParseMode(%q) = %v, %v", name, m, err)
		}
	}
	if m, err := ParseMode(""); err != nil || m != Default {
		t.Errorf("ParseMode(\"\") = %v, %v; want Default", m, err)
	}
	for _, bad := range []string{"Plan", "dontask", "auto", "bypass"} {
		_, err := ParseMode(bad)
		if err == nil || !strings.Contains(err.Error(), "valid modes: default, acceptEdits, plan, bypassPermissions, dontAsk") ||
			!strings.HasPrefix(err.Error(), "permissions: ") {
			t.Errorf("ParseMode(%q) error = %v; want one listing the valid modes", bad, err)
		}
	}
}

// TestPolicyJSON checks that a Policy crosses a Temporal payload intact:
// rules and the mode travel as the strings settings.json holds.
func TestPolicyJSON(t *testing.T) {
	pol := Policy{
		Allow: mustRules(t, list("Bash(npm test)", "Read(./src/**)")),
		Deny:  mustRules(t, list("WebFetch(domain:*.evil.com)")),
		Mode:  AcceptEdits, WorkDir: "/proj", HomeDir: "/home/u",
		ReadOnlyCommand: fakeReadOnly,
	}
	data, err := json.Marshal(pol)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"Allow":["Bash(npm test)","Read(./src/**)"]`) || !strings.Contains(string(data), `"Mode":"acceptEdits"`) {
		t.Fatalf("unexpected JSON %s", data)
	}
	var back Policy
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Allow[1] != pol.Allow[1] || back.Deny[0] != pol.Deny[0] || back.Mode != AcceptEdits {
		t.Fatalf("round trip changed the policy: %+v", back)
	}
	d, _ := json.Marshal(Decision{Behavior: Ask, Reason: "r"})
	if string(d) != `{"Behavior":"ask","Reason":"r","Rule":""}` {
		t.Fatalf("Decision JSON = %s", d)
	}
	var b Behavior
	if err := b.UnmarshalText([]byte("maybe")); err == nil {
		t.Fatal("Behavior accepted \"maybe\"")
	}
}

func TestDeniedPath(t *testing.T) {
	pol := Policy{WorkDir: "/proj", Deny: mustRules(t, list("Read(./secrets/**)", "Edit(*.lock)"))}
	if r, ok := DeniedPath(ToolGrep, "/proj/secrets/a/key", pol); !ok || r.String() != "Read(./secrets/**)" {
		t.Errorf("DeniedPath(Grep, secrets) = %v, %v", r, ok)
	}
	if _, ok := DeniedPath(ToolGlob, "/proj/src/a.go", pol); ok {
		t.Errorf("DeniedPath(Glob, src) denied")
	}
	if _, ok := DeniedPath(ToolWrite, "/proj/x/go.lock", pol); !ok {
		t.Errorf("DeniedPath(Write, go.lock) not denied by Edit(*.lock)")
	}
}

func TestZeroDecisionDenies(t *testing.T) {
	if (Decision{}).Behavior != Deny {
		t.Fatal("the zero Decision must deny")
	}
}
