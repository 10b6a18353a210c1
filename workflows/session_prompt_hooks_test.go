package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// promptGuard is a PreToolUse prompt hook on Bash.
func promptGuard(prompt string) *workflows.TurnSettings {
	return &workflows.TurnSettings{Hooks: hooks.Config{PreToolUse: []hooks.Group{{Matcher: "Bash",
		Hooks: []hooks.Command{{Type: hooks.TypePrompt, Prompt: prompt}}}}}}
}

// A PreToolUse prompt hook asks the model about the call, with the hook input in
// its question and the answer's schema as the output format. The model's
// {"ok": false} denies the call (it never runs) and ends the agent with the reason,
// as in Claude Code; {"ok": true} lets the call run and the agent go on.
func TestPromptHookDeniesAndAllows(t *testing.T) {
	const guard = "No recursive deletes. Is this call fine? $ARGUMENTS"
	deny := `{"ok": false, "reason": "rm -rf deletes the whole tree"}`
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{use("b1", "Bash", map[string]any{"command": "rm -rf victim"})}},
		fakeanthropic.Response{When: "No recursive deletes", Content: []wire.Block{text(deny)}},
	)
	victim := filepath.Join(h.work, "victim")
	if err := os.Mkdir(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	s := promptGuard(guard)
	s.ProjectDir = h.work
	res := h.result(h.start(workflows.SessionInput{Prompt: "Clean up", Settings: s, Options: fastOptions()}))
	if res.StopReason != workflows.StopHook || res.HookReason != "rm -rf deletes the whole tree" {
		t.Fatalf("result %+v; want the agent stopped with the hook's reason", res)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatal("the denied command ran")
	}
	reqs := h.fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests; want the agent's call and the hook's", len(reqs))
	}
	hook := reqs[1]
	msg := messageText(hook.Messages[0])
	if hook.Model != "claude-haiku-4-5" || !strings.Contains(hook.System, "You judge a hook") ||
		!strings.HasPrefix(msg, "No recursive deletes. Is this call fine? {") ||
		!strings.Contains(msg, `"hook_event_name":"PreToolUse"`) || !strings.Contains(msg, `"command":"rm -rf victim"`) ||
		!strings.Contains(string(hook.Body), `"output_config":{"format":{`) || len(hook.Tools) != 0 {
		t.Fatalf("hook request: model %s system %q message %q body %s", hook.Model, hook.System, msg, hook.Body)
	}

	// The same guard lets a harmless call through.
	h2 := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{use("b1", "Bash", map[string]any{"command": "echo hi > out.txt"})}},
		fakeanthropic.Response{When: "No recursive deletes", Content: []wire.Block{text(`{"ok": true, "reason": "writes one file"}`)}},
		fakeanthropic.Response{Content: []wire.Block{text("Done.")}},
	)
	s2 := promptGuard(guard)
	s2.ProjectDir = h2.work
	res = h2.result(h2.start(workflows.SessionInput{Prompt: "Say hi", Settings: s2, Options: fastOptions()}))
	if res.StopReason != "end_turn" || res.Text != "Done." {
		t.Fatalf("result %+v", res)
	}
	if b, err := os.ReadFile(filepath.Join(h2.work, "out.txt")); err != nil || string(b) != "hi\n" {
		t.Fatalf("the allowed command did not run: %q %v", b, err)
	}
}

// A Stop prompt hook that answers ok: false keeps the agent going with
// "[prompt]: reason" as its next message; the next answer, ok: true, lets it stop.
func TestPromptHookKeepsAgentGoing(t *testing.T) {
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{text("I changed the code.")}},
		fakeanthropic.Response{When: "the tests were run", Content: []wire.Block{text(`{"ok": false, "reason": "no test run is shown"}`)}},
		fakeanthropic.Response{Content: []wire.Block{text("Tests pass.")}},
		fakeanthropic.Response{When: "the tests were run", Content: []wire.Block{text(`{"ok": true, "reason": "Tests pass."}`)}},
	)
	s := &workflows.TurnSettings{ProjectDir: h.work, Hooks: hooks.Config{Stop: []hooks.Group{{
		Hooks: []hooks.Command{{Type: hooks.TypePrompt, Prompt: "the tests were run"}}}}}}
	res := h.result(h.start(workflows.SessionInput{Prompt: "Fix it", Settings: s, Options: fastOptions()}))
	if res.StopReason != "end_turn" || res.Text != "Tests pass." {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests; want model, hook, model, hook", len(reqs))
	}
	msgs := rawMessages(t, reqs[2])
	if last := string(msgs[len(msgs)-1]); !strings.Contains(last, "Stop hook feedback:\\n[the tests were run]: no test run is shown") {
		t.Fatalf("the agent was not told why it may not stop: %s", last)
	}
	if q := messageText(reqs[1].Messages[0]); !strings.Contains(q, "Condition: the tests were run") || !strings.Contains(q, `"last_assistant_message":"I changed the code."`) {
		t.Fatalf("Stop hook question %q", q)
	}
}

// A prompt hook on a worker without an API key says so and the call proceeds: a
// non-blocking error, as any hook that cannot run.
func TestPromptHookWithoutModel(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "") // the worker reads it at registration
	dir := t.TempDir()
	res := runGated(t, dir, promptGuard("Is $ARGUMENTS fine?"), bashB("b1", "echo ran"))
	if r := res.Results[0]; r.IsError || r.Content != "ran" {
		t.Fatalf("result %+v", r)
	}
	if n := noticeText(res); !strings.Contains(n, "could not run: no model to ask: the worker has no ANTHROPIC_API_KEY") {
		t.Fatalf("notices %q", n)
	}
}

func messageText(m conversation.Message) string {
	var b strings.Builder
	for _, c := range m.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}
