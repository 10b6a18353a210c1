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
		{"exit 2 pre", PreToolUse, Run{ExitCode: 2, Stderr: "rm -rf is forbidden\n", Stdout: `{"decision":"approve"}`}, func(t *testing.T, o Outcome) {
			want(t, o.Status == Blocking && o.Decision == Deny && o.Reason == "rm -rf is forbidden", o)
		}},
		{"exit 2 post", PostToolUse, Run{ExitCode: 2, Stderr: "fix the lint"}, func(t *testing.T, o Outcome) {
			want(t, o.Status == Blocking && o.Block && o.BlockReason == "fix the lint" && o.Decision == "", o)
		}},
		{"exit 2 no stderr", PreToolUse, Run{ExitCode: 2}, func(t *testing.T, o Outcome) {
			want(t, o.Decision == Deny && o.Reason == "No stderr output", o)
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

func TestFormat(t *testing.T) {
	got := WithContext("out\n", PostToolUse, "Bash", []string{"one", "two"})
	if got != "out\n\n<system-reminder>\nPostToolUse:Bash hook additional context: one\ntwo\n</system-reminder>" {
		t.Fatalf("WithContext = %q", got)
	}
	if WithContext("x", PreToolUse, "Bash", nil) != "x" || WithFeedback("x", PostToolUse, "Bash", nil) != "x" {
		t.Fatal("no context must leave the content alone")
	}
	if got := DenyMessage("Bash", ""); got != "PreToolUse:Bash hook denied this tool call: no reason given" {
		t.Fatalf("DenyMessage = %q", got)
	}
}
