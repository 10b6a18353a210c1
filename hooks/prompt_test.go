package hooks

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// The hook input fills $ARGUMENTS (every one, not an escaped one), or follows the
// prompt after "ARGUMENTS:" when it has none; Stop hooks judge a condition.
func TestPromptMessage(t *testing.T) {
	in := `{"tool_name":"Bash"}`
	for _, c := range []struct {
		e            Event
		prompt, want string
	}{
		{PreToolUse, "Is $ARGUMENTS safe? Check $ARGUMENTS twice.", `Is {"tool_name":"Bash"} safe? Check {"tool_name":"Bash"} twice.`},
		{PreToolUse, "Is it safe?", "Is it safe?\n\nARGUMENTS: " + in},
		{PostToolUse, `Literal \$ARGUMENTS, then $ARGUMENTS`, `Literal $ARGUMENTS, then ` + in},
		{Stop, "tests pass: $ARGUMENTS", "Has the following stopping condition been satisfied? Judge from the evidence given only.\n\nCondition: tests pass: " + in},
	} {
		if got := PromptMessage(c.e, c.prompt, in); got != c.want {
			t.Errorf("%s %q:\n got %q\nwant %q", c.e, c.prompt, got, c.want)
		}
	}
}

// What an answer means, per event: ok lets the action go; ok: false denies a
// PreToolUse call and ends the agent unless continueOnBlock; a Stop hook's false
// keeps the agent going and an impossible condition lets it stop; anything that is
// not the answer's JSON is a non-blocking error.
func TestParsePrompt(t *testing.T) {
	hook := Command{Type: TypePrompt, Prompt: "No rm -rf"}
	run := func(answer string) PromptRun { return PromptRun{Answer: answer, Duration: time.Second} }
	if o := ParsePrompt(PreToolUse, hook, run(`{"ok": true, "reason": "harmless"}`)); o.Status != Success || o.Decision != "" || o.Stop {
		t.Fatalf("ok: %+v", o)
	}
	o := ParsePrompt(PreToolUse, hook, run("```json\n{\"ok\": false, \"reason\": \"it deletes the tree\"}\n```"))
	if o.Status != Blocking || o.Decision != Deny || o.Reason != "[No rm -rf]: it deletes the tree" || !o.Stop || o.StopReason != "it deletes the tree" {
		t.Fatalf("deny: %+v", o)
	}
	if got := DenyText("Bash", Aggregate(PreToolUse, []Outcome{o})); got != "PreToolUse:Bash hook error: [No rm -rf]: it deletes the tree" {
		t.Fatalf("deny text %q (Claude Code's words for a blocking error)", got)
	}
	cont := hook
	cont.ContinueOnBlock = true
	post := ParsePrompt(PostToolUse, cont, run(`{"ok": false, "reason": "bad"}`))
	if !post.Block || post.BlockReason != "[No rm -rf]: bad" || post.Stop {
		t.Fatalf("continueOnBlock: %+v", post)
	}
	// The model is told once which prompt blocked, not again in brackets.
	if b := Aggregate(PostToolUse, []Outcome{post}).Blocking; len(b) != 1 || strings.Count(b[0], "No rm -rf") != 2 || !strings.HasSuffix(b[0], `": [No rm -rf]: bad`) {
		t.Fatalf("a prompt hook's blocking error for the model: %q", b)
	}
	if o := ParsePrompt(Stop, hook, run(`{"ok": false, "reason": "tests not run"}`)); !o.Block || o.BlockReason != "[No rm -rf]: tests not run" || o.Stop {
		t.Fatalf("Stop: %+v", o)
	}
	if o := ParsePrompt(Stop, hook, run(`{"ok": false, "impossible": true, "reason": "no network"}`)); o.Status != Success || o.Block || !strings.Contains(o.SystemMessage, "no network") {
		t.Fatalf("impossible: %+v", o)
	}
	for answer, want := range map[string]string{
		"I think it is fine":                  "no JSON object",
		`{"reason": "x"}`:                     `"ok" is missing`,
		`{"ok": "yes", "reason": "x"}`:        "cannot unmarshal",
		`{"ok": false, "reason": ["a", "b"]}`: "cannot unmarshal",
	} {
		if o := ParsePrompt(PreToolUse, hook, run(answer)); o.Status != NonBlocking || o.Decision != "" || !strings.Contains(o.Error, want) {
			t.Errorf("answer %q: %+v, want a non-blocking error with %q", answer, o, want)
		}
	}
	if o := ParsePrompt(PreToolUse, hook, PromptRun{Failure: "no model to ask"}); o.Status != NonBlocking || !strings.Contains(o.Error, "could not run: no model to ask") {
		t.Fatalf("failure: %+v", o)
	}
	if o := ParsePrompt(PreToolUse, hook, PromptRun{TimedOut: true, Timeout: 30 * time.Second}); o.Status != NonBlocking || !strings.Contains(o.Error, "within 30s") {
		t.Fatalf("timeout: %+v", o)
	}
}

// Identical prompts with the same model run once; a prompt hook's timeout defaults
// to 30 seconds.
func TestPromptHooksSelected(t *testing.T) {
	p := Command{Type: TypePrompt, Prompt: "ok?"}
	c := Config{PreToolUse: []Group{{Hooks: []Command{p, p, {Type: TypePrompt, Prompt: "ok?", Model: "other"}, {Command: "ok?"}}}}}
	if got := c.Select(PreToolUse, "Bash"); len(got) != 3 {
		t.Fatalf("selected %+v", got)
	}
	if !c.HasPrompt() || (Config{PreToolUse: []Group{{Hooks: []Command{{Command: "x"}}}}}).HasPrompt() {
		t.Fatal("HasPrompt")
	}
	if p.TimeoutDuration() != DefaultPromptTimeout || (Command{Command: "x"}).TimeoutDuration() != DefaultTimeout {
		t.Fatal("default timeouts")
	}
}

// FuzzParsePrompt feeds arbitrary model answers to ParsePrompt, which runs in
// workflow code: no panic, deterministic, and only a well-formed ok: false blocks.
func FuzzParsePrompt(f *testing.F) {
	for _, s := range []string{"", `{"ok":true,"reason":"r"}`, `{"ok":false,"reason":"r"}`, `{"ok":false,"impossible":true}`,
		"```json\n{\"ok\":false}\n```", `{"ok":1}`, `}{`, "\xff{\"ok\":false}"} {
		f.Add(s, uint8(0), false)
		f.Add(s, uint8(5), true)
	}
	f.Fuzz(func(t *testing.T, answer string, ev uint8, cont bool) {
		e := Events[int(ev)%len(Events)]
		c := Command{Type: TypePrompt, Prompt: "p $ARGUMENTS", ContinueOnBlock: cont}
		o := ParsePrompt(e, c, PromptRun{Answer: answer})
		a, _ := json.Marshal(o)
		b, _ := json.Marshal(ParsePrompt(e, c, PromptRun{Answer: answer}))
		if string(a) != string(b) {
			t.Fatalf("not deterministic: %s vs %s", a, b)
		}
		blocked := o.Decision == Deny || o.Block
		switch {
		case blocked != (o.Status == Blocking):
			t.Fatalf("blocking status and effect disagree: %+v", o)
		case blocked && !strings.Contains(answer, "false"):
			t.Fatalf("blocked without ok: false in %q: %+v", answer, o)
		case o.Stop && (cont || e == Stop || e == SubagentStop):
			t.Fatalf("stopped the agent despite continueOnBlock or a Stop event: %+v", o)
		case o.Decision != "" && e != PreToolUse && e != PermissionRequest:
			t.Fatalf("%s made a permission decision: %+v", e, o)
		}
		_ = PromptMessage(e, answer, answer)
	})
}
