package permissions

import "testing"

func TestDisables(t *testing.T) {
	var p Policy
	for _, s := range []string{"Glob", "mcp__web", "Bash(rm:*)"} {
		var r Rule
		if err := r.UnmarshalText([]byte(s)); err != nil {
			t.Fatal(err)
		}
		p.Deny = append(p.Deny, r)
	}
	for name, want := range map[string]bool{
		"Glob": true, "mcp__web__fetch": true, "Bash": false, "Grep": false, "mcp__webby__x": false, "mcp__other__x": false,
	} {
		if got := p.Disables(name); got != want {
			t.Errorf("Disables(%q) = %v, want %v", name, got, want)
		}
	}
}
