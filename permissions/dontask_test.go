package permissions

import (
	"strings"
	"testing"
)

// In dontAsk mode whatever would ask is denied, and what rules or read-only
// judgements allow still runs.
func TestDontAskDeniesWhatWouldAsk(t *testing.T) {
	pol := Policy{Mode: DontAsk, ProjectDir: "/proj", WorkDir: "/proj",
		Allow: mustRules(t, []string{"Bash(npm test)"}), Ask: mustRules(t, []string{"Bash(git push:*)"})}
	for _, tc := range []struct {
		name string
		req  Request
		want Behavior
	}{
		{"no rule", bash("make deploy"), Deny},
		{"ask rule", bash("git push origin main"), Deny},
		{"allow rule", bash("npm test"), Allow},
		{"read-only", robash("ls"), Allow},
		{"edit in the working directory", file(ToolEdit, "/proj/a.go"), Deny},
		{"read in the working directory", file(ToolRead, "/proj/a.go"), Allow},
		{"read outside", file(ToolRead, "/etc/passwd"), Deny},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Decide(tc.req, pol)
			if d.Behavior != tc.want {
				t.Fatalf("Decide = %v (%s); want %v", d.Behavior, d.Reason, tc.want)
			}
			if d.Behavior == Deny && !strings.Contains(d.Reason, "dontAsk") {
				t.Fatalf("the reason does not name the mode: %s", d.Reason)
			}
			if ask := Decide(tc.req, Policy{Mode: Default, ProjectDir: "/proj", WorkDir: "/proj", Allow: pol.Allow, Ask: pol.Ask}); tc.want == Deny && ask.Behavior != Ask {
				t.Fatalf("in default mode the call does not ask (%v): the case tests nothing", ask.Behavior)
			}
		})
	}
}

func TestDontAskParses(t *testing.T) {
	m, err := ParseMode("dontAsk")
	if err != nil || m != DontAsk || m.String() != "dontAsk" {
		t.Fatalf("ParseMode(dontAsk) = %v, %v", m, err)
	}
	if _, err := ParseMode("dontask"); err == nil {
		t.Fatal("modes are case-sensitive")
	}
}
