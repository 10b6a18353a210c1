package hooks

import (
	"slices"
	"testing"
)

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		matcher, tool string
		want          bool
	}{
		{"", "Bash", true},
		{"*", "Read", true},
		{"Bash", "Bash", true},
		{"Bash", "bash", false}, // case-sensitive
		{"Bash", "BashX", false},
		{"Edit|Write", "Write", true},
		{"Edit|Write", "Edit", true},
		{"Edit|Write", "Read", false},
		{"Edit|Write", "EditWrite", false},
		{"Notebook.*", "NotebookEdit", true},
		{"Ba.h", "Bash", true},
		{"mcp__memory__.*", "mcp__memory__create", true},
		{"mcp__memory__.*", "Bash", false},
		{"^Read$", "Read", true},
		{"^Read$", "ReadX", false},
		{"Re", "Read", false}, // a plain name is exact, not a substring
		{"(", "Read", false},  // invalid regex matches nothing
	} {
		if got := Match(c.matcher, c.tool); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.matcher, c.tool, got, c.want)
		}
	}
}

func TestCheckMatcher(t *testing.T) {
	for _, ok := range []string{"", "*", "Bash", "Edit|Write", "Notebook.*"} {
		if err := CheckMatcher(ok); err != nil {
			t.Errorf("CheckMatcher(%q): %v", ok, err)
		}
	}
	if err := CheckMatcher("Bash("); err == nil {
		t.Error("CheckMatcher accepted an invalid regex")
	}
}

func TestSelectDedupsAndKeepsOrder(t *testing.T) {
	c := Config{PreToolUse: []Group{
		{Matcher: "Bash", Hooks: []Command{{Command: "a"}, {Command: "b", Timeout: 5}}},
		{Matcher: "Read", Hooks: []Command{{Command: "r"}}},
		{Matcher: "*", Hooks: []Command{{Command: "b", Timeout: 9}, {Command: "c"}}},
	}}
	got := c.Select(PreToolUse, "Bash")
	want := []Command{{Command: "a"}, {Command: "b", Timeout: 5}, {Command: "c"}}
	if !slices.Equal(got, want) {
		t.Fatalf("Select = %v, want %v", got, want)
	}
	if got := c.Select(PostToolUse, "Bash"); len(got) != 0 {
		t.Fatalf("PostToolUse selected %v", got)
	}
	if c.Empty() || !(Config{}).Empty() {
		t.Fatal("Empty is wrong")
	}
	if d := (Command{}).TimeoutDuration(); d != DefaultTimeout {
		t.Fatalf("default timeout %v", d)
	}
}
