package hooks

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		name  string
		event Event
		run   Run
		check func(t *testing.T, o Outcome)
	}{
		{"exit 0 empty", PreToolUse, Run{}, func(t *testing.T, o Outcome) {
			want(t, o.Status == Success && o.Decision == "" && o.Text == "", o)
		}},
		{"exit 0 plain text", PreToolUse, Run{Stdout: "hello\n"}, func(t *testing.T, o Outcome) {
			want(t, o.Status == Success && o.Text == "hello" && o.Decision == "", o)
		}},
		{"exit 0 deny JSON", PreToolUse, Run{Stdout: `  {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`}, func(t *testing.T, o Outcome) {
			want(t, o.Status == Success && o.Decision == Deny && o.Reason == "no rm", o)
		}},
		{"ask", PreToolUse, Run{Stdout: `{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"sure?"}}`}, func(t *testing.T, o Outcome) {
			want(t, o.Decision == Ask && o.Reason == "sure?", o)
		}},
		{"legacy approve", PreToolUse, Run{Stdout: `{"decision":"approve","reason":"fine"}`}, func(t *testing.T, o Outcome) {
			want(t, o.Decision == Allow && o.Reason == "fine", o)
		}},
		{"legacy block", PreToolUse, Run{Stdout: `{"decision":"block","reason":"bad"}`}, func(t *testing.T, o Outcome) {
			want(t, o.Decision == Deny && o.Reason == "bad", o)
		}},
		{"permissionDecision wins over legacy", PreToolUse, Run{Stdout: `{"decision":"block","reason":"x","hookSpecificOutput":{"permissionDecision":"allow"}}`}, func(t *testing.T, o Outcome) {
			want(t, o.Decision == Allow, o)
		}},
		{"updatedInput", PreToolUse, Run{Stdout: `{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{ "command" : "ls -la" }}}`}, func(t *testing.T, o Outcome) {
			want(t, string(o.UpdatedInput) == `{"command":"ls -la"}`, o)
		}},
		{"updatedInput not an object", PreToolUse, Run{Stdout: `{"hookSpecificOutput":{"updatedInput":"ls"}}`}, func(t *testing.T, o Outcome) {
			want(t, o.Status == NonBlocking && strings.Contains(o.Error, "updatedInput"), o)
		}},
		{"updatedInput null ignored", PreToolUse, Run{Stdout: `{"hookSpecificOutput":{"updatedInput":null}}`}, func(t *testing.T, o Outcome) {
			want(t, o.Status == Success && o.UpdatedInput == nil, o)
		}},
		{"additional context", PostToolUse, Run{Stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint ok"}}`}, func(t *testing.T, o Outcome) {
			want(t, o.AdditionalContext == "lint ok", o)
		}},
		{"post block", PostToolUse, Run{Stdout: `{"decision":"block","reason":"tests fail"}`}, func(t *testing.T, o Outcome) {
			want(t, o.Block && o.BlockReason == "tests fail" && o.Decision == "", o)
		}},
		{"post approve is invalid", PostToolUse, Run{Stdout: `{"decision":"approve"}`}, func(t *testing.T, o Outcome) {
			want(t, o.Status == NonBlocking, o)
		}},
		{"updatedMCPToolOutput", PostToolUse, Run{Stdout: `{"hookSpecificOutput":{"updatedMCPToolOutput":{"a":1}}}`}, func(t *testing.T, o Outcome) {
			want(t, string(o.UpdatedMCPToolOutput) == `{"a":1}`, o)
		}},
		{"continue false", PreToolUse, Run{Stdout: `{"continue":false,"stopReason":"budget spent","systemMessage":"bye","suppressOutput":true}`}, func(t *testing.T, o Outcome) {
			want(t, o.Stop && o.StopReason == "budget spent" && o.SystemMessage == "bye" && o.SuppressOutput, o)
		}},
		{"continue true", PreToolUse, Run{Stdout: `{"continue":true}`}, func(t *testing.T, o Outcome) {
			want(t, !o.Stop, o)
		}},
		{"unknown fields ignored", PreToolUse, Run{Stdout: `{"extra":[1,2],"hookSpecificOutput":{"other":true,"permissionDecision":"deny"}}`}, func(t *testing.T, o Outcome) {
			want(t, o.Decision == Deny, o)
		}},
		{"wrong event name", PreToolUse, Run{Stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny"}}`}, func(t *testing.T, o Outcome) {
			want(t, o.Status == NonBlocking && o.Decision == "", o)
		}},
		{"bad permissionDecision", PreToolUse, Run{Stdout: `{"hookSpecificOutput":{"permissionDecision":"maybe"}}`}, func(t *testing.T, o Outcome) {
			want(t, o.Status == NonBlocking && strings.Contains(o.Error, "maybe"), o)
		}},
		{"wrong type", PreToolUse, Run{Stdout: `{"continue":"no"}`}, func(t *testing.T, o Outcome) {
			want(t, o.Status == NonBlocking && !o.Stop, o)
		}},
		{"garbage after brace", PreToolUse, Run{Stdout: "{not json at all"}, func(t *testing.T, o Outcome) {
			want(t, o.Status == NonBlocking && strings.Contains(o.Error, "invalid JSON"), o)
		}},
		{"exit 2 pre", PreToolUse, Run{Command: "guard.sh", ExitCode: 2, Stderr: "rm -rf is forbidden\n", Stdout: `{"decision":"approve"}`}, func(t *testing.T, o Outcome) {
			want(t, o.Status == Blocking && o.Decision == Deny && o.Reason == "[guard.sh]: rm -rf is forbidden", o)
		}},
		{"exit 2 post", PostToolUse, Run{Command: "lint.sh", ExitCode: 2, Stderr: "fix the lint"}, func(t *testing.T, o Outcome) {
			want(t, o.Status == Blocking && o.Block && o.BlockReason == "[lint.sh]: fix the lint" && o.Decision == "", o)
		}},
		{"exit 2 no stderr", PreToolUse, Run{Command: "guard.sh", ExitCode: 2}, func(t *testing.T, o Outcome) {
			want(t, o.Decision == Deny && o.Reason == "[guard.sh]: No stderr output", o)
		}},
		{"exit 1", PreToolUse, Run{ExitCode: 1, Stderr: "oops", Stdout: `{"hookSpecificOutput":{"permissionDecision":"deny"}}`}, func(t *testing.T, o Outcome) {
			want(t, o.Status == NonBlocking && o.Decision == "" && strings.Contains(o.Error, "exit code 1: oops"), o)
		}},
		{"timed out", PreToolUse, Run{TimedOut: true, ExitCode: 143, Timeout: time.Second}, func(t *testing.T, o Outcome) {
			want(t, o.Status == NonBlocking && strings.Contains(o.Error, "timed out after 1s"), o)
		}},
		{"failure", PreToolUse, Run{Failure: "no bash"}, func(t *testing.T, o Outcome) {
			want(t, o.Status == NonBlocking && strings.Contains(o.Error, "no bash"), o)
		}},
	} {
		t.Run(c.name, func(t *testing.T) { c.check(t, Parse(c.event, c.run)) })
	}
}

func want(t *testing.T, ok bool, o Outcome) {
	t.Helper()
	if !ok {
		t.Fatalf("unexpected outcome %+v", o)
	}
}

func TestAggregate(t *testing.T) {
	outs := []Outcome{
		{Command: "a", Decision: Allow, Reason: "a ok", UpdatedInput: []byte(`{"command":"a"}`), Duration: 100 * time.Millisecond},
		{Command: "b", Decision: Ask, Reason: "b asks", AdditionalContext: "ctx b", Duration: 700 * time.Millisecond},
		{Command: "c", Decision: Ask, Reason: "c asks", UpdatedInput: []byte(`{"command":"c"}`), SystemMessage: "hello user"},
		{Command: "d", Status: NonBlocking, Error: "failed with exit code 1"},
		{Command: "e", Stop: true, StopReason: "done for today", AdditionalContext: "ctx e"},
	}
	r := Aggregate(PreToolUse, outs)
	if r.Decision != Ask || r.Reason != "b asks\nc asks" {
		t.Fatalf("decision %q reason %q", r.Decision, r.Reason)
	}
	if string(r.UpdatedInput) != `{"command":"c"}` || len(r.Context) != 2 || !r.Stop || r.StopReason != "done for today" {
		t.Fatalf("aggregate %+v", r)
	}
	if r.Duration != 700*time.Millisecond || len(r.Messages) != 2 || !strings.Contains(r.Messages[1], "`d` failed") {
		t.Fatalf("aggregate %+v", r)
	}
	deny := Aggregate(PreToolUse, append(outs, Outcome{Command: "f", Decision: Deny, Reason: "never", UpdatedInput: []byte(`{"x":1}`)}))
	if deny.Decision != Deny || deny.Reason != "never" || string(deny.UpdatedInput) != `{"command":"c"}` {
		t.Fatalf("deny does not win: %+v", deny)
	}
	if s := r.Summary("Bash"); !strings.Contains(s, "PreToolUse hooks for Bash took 700ms") || !strings.Contains(s, "`b` 700ms") {
		t.Fatalf("summary %q", s)
	}
}

// What the model is told of hooks, in Claude Code 2.1.328's words (test/parity
// TestParityCommandHooks compares them with the real thing): a deny is a "hook
// error", an exit 2 names its command, and a call's blocking errors and contexts are
// paragraphs of one reminder, errors first, then PostToolUse's and PreToolUse's
// contexts.
func TestFormat(t *testing.T) {
	exit2 := Parse(PreToolUse, Run{Command: "check.sh", ExitCode: 2, Stderr: "no\n"})
	if got := DenyText("Bash", Aggregate(PreToolUse, []Outcome{exit2})); got != "PreToolUse:Bash hook error: [check.sh]: no" {
		t.Fatalf("exit 2 deny = %q", got)
	}
	if got := DenyText("Bash", Aggregate(PreToolUse, []Outcome{{Command: "j", Decision: Deny}})); got != "PreToolUse:Bash hook error: Blocked by hook" {
		t.Fatalf("deny without a reason = %q", got)
	}
	pre := Aggregate(PreToolUse, []Outcome{{Command: "p", AdditionalContext: "before"}})
	post := Aggregate(PostToolUse, []Outcome{
		Parse(PostToolUse, Run{Command: `lint "x"`, ExitCode: 2, Stderr: "bad"}),
		{Command: "j", Block: true, BlockReason: "json no", AdditionalContext: "after"},
	})
	want := "out\n\n<system-reminder>\n" +
		`PostToolUse:Bash hook blocking error from command: "lint "x"": [lint "x"]: bad` + "\n\n" +
		`PostToolUse:Bash hook blocking error from command: "j": json no` + "\n\n" +
		"PostToolUse:Bash hook additional context: after\n\n" +
		"PreToolUse:Bash hook additional context: before\n</system-reminder>"
	if got := Reminder("out\n", "Bash", pre, post); got != want {
		t.Fatalf("Reminder =\n%q\nwant\n%q", got, want)
	}
	if Reminder("x", "Bash", Result{}, Result{}) != "x" {
		t.Fatal("no hook output must leave the content alone")
	}
}
