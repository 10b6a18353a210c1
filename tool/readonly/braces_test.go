package readonly

import (
	"slices"
	"testing"
)

func TestExpandBraces(t *testing.T) {
	got, ok := ExpandBraces("{a,b}/{c,{d,e}}x", false)
	want := []string{"a/cx", "a/dx", "a/ex", "b/cx", "b/dx", "b/ex"}
	slices.Sort(got)
	if !ok || !slices.Equal(got, want) {
		t.Errorf("ExpandBraces = %v %v, want %v", got, ok, want)
	}
	if got, ok := ExpandBraces(`\{a,b}`, true); !ok || !slices.Equal(got, []string{`\{a,b}`}) {
		t.Errorf("escaped brace: %v %v", got, ok)
	}
	if got, ok := ExpandBraces("{a}x{}", false); !ok || !slices.Equal(got, []string{"{a}x{}"}) {
		t.Errorf("braces without a list: %v %v", got, ok)
	}
	if _, ok := ExpandBraces("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", false); ok {
		t.Error("128 alternatives expanded")
	}
	if got := BraceRanges("/w/.{e..f}nv/{1..9..2}"); got != "/w/.*nv/*" {
		t.Errorf("BraceRanges = %q", got)
	}
}
