package hooks

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse feeds arbitrary hook output to Parse and Aggregate, which run inside
// workflow code: they must never panic, must be deterministic, and must keep their
// invariants whatever a hook prints. The seed corpus in testdata/fuzz/FuzzParse holds
// real outputs of the scripts in testdata/scripts and their edge cases.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "plain text", `{}`, `{"continue":false,"stopReason":"x"}`,
		`{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}`,
		`{"decision":"block","reason":"r"}`, `{"hookSpecificOutput":{"updatedInput":{"command":"ls"}}}`,
		`{"hookSpecificOutput":{"updatedInput":[1]}}`, `{`, `{"continue":"no"}`, "\xff\xfe{",
	} {
		f.Add(0, s, "", uint8(0))
		f.Add(2, s, "blocked", uint8(1))
	}
	f.Fuzz(func(t *testing.T, exit int, stdout, stderr string, ev uint8) {
		e := Events[int(ev)%len(Events)]
		run := Run{Command: "hook", ExitCode: exit, Stdout: stdout, Stderr: stderr}
		o := Parse(e, run)
		again := Parse(e, run)
		a, _ := json.Marshal(o)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			t.Fatalf("Parse is not deterministic: %s vs %s", a, b)
		}
		switch {
		case exit == 2 && o.Status != Blocking, exit != 0 && exit != 2 && o.Status != NonBlocking:
			t.Fatalf("exit %d gave status %s", exit, o.Status)
		case o.Status == NonBlocking && (o.Decision != "" || o.Stop || o.Block || o.UpdatedInput != nil):
			t.Fatalf("a non-blocking error must decide nothing: %+v", o)
		case e != PreToolUse && e != PermissionRequest && (o.Decision != "" || o.UpdatedInput != nil):
			t.Fatalf("%s made a permission decision: %+v", e, o)
		case e == PermissionRequest && o.Decision == Ask:
			// A PermissionRequest hook answers an ask: it allows or denies, never asks.
			t.Fatalf("PermissionRequest answered ask: %+v", o)
		case o.UpdatedInput != nil && (!json.Valid(o.UpdatedInput) || !strings.HasPrefix(string(o.UpdatedInput), "{")):
			t.Fatalf("updatedInput is not a JSON object: %s", o.UpdatedInput)
		case o.Decision != "" && o.Decision != Allow && o.Decision != Ask && o.Decision != Deny:
			t.Fatalf("invalid decision %q", o.Decision)
		case exit == 0 && o.Status == Success && o.Text != "" && utf8.ValidString(stdout) && !strings.Contains(stdout, o.Text):
			t.Fatalf("plain text %q is not from stdout", o.Text)
		}
		r := Aggregate(e, []Outcome{o, again})
		if r.Decision != o.Decision || r.Stop != o.Stop {
			t.Fatalf("aggregating an outcome with itself changed it: %+v vs %+v", r, o)
		}
	})
}
