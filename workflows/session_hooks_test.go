package workflows_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testfs"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// Session-level hooks as Claude Code runs them: SessionStart adds context to the
// first model call; a Stop hook that blocks keeps the agent going with its reason
// (and is told stop_hook_active the next time); SessionEnd runs at the end. Every
// hook's input is recorded by a real script.
func TestSessionHooksStartStopEnd(t *testing.T) {
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{text("All done.")}},
		fakeanthropic.Response{Content: []wire.Block{text("Tests pass too.")}},
	)
	rec := script(t, "record", "sh")
	log := filepath.Join(h.work, "hook-inputs.jsonl")
	cmd := func(c string) []hooks.Group { return []hooks.Group{{Hooks: []hooks.Command{{Command: c}}}} }
	s := &workflows.TurnSettings{ProjectDir: h.work, Hooks: hooks.Config{
		SessionStart: cmd(`cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"This project builds with make."}}'`),
		Stop: cmd(`in=$(cat); printf '%s\n' "$in" >> "$CLAUDE_PROJECT_DIR/hook-inputs.jsonl"; ` +
			`case "$in" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"Run the tests before stopping."}';; esac`),
		SessionEnd: cmd(rec),
	}}
	res := h.result(h.start(workflows.SessionInput{Prompt: "Fix it", Settings: s, Options: fastOptions()}))
	if res.StopReason != "end_turn" || res.Text != "Tests pass too." {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model calls; want 2 (the Stop hook keeps the agent going once)", len(reqs))
	}
	first := string(rawMessages(t, reqs[0])[0]) + string(rawMessages(t, reqs[0])[len(rawMessages(t, reqs[0]))-1])
	if !strings.Contains(first, "SessionStart hook additional context: This project builds with make.") {
		t.Fatalf("first request lacks the SessionStart context: %s", first)
	}
	msgs := rawMessages(t, reqs[1])
	if last := string(msgs[len(msgs)-1]); !strings.Contains(last, "Stop hook feedback:\\nRun the tests before stopping.") {
		t.Fatalf("second request's last message: %s", last)
	}
	var events []string
	for _, in := range testfs.ReadJSONValues(t, log) {
		ev := in["hook_event_name"].(string)
		switch ev {
		case "Stop":
			ev += map[bool]string{true: "(active)", false: "(inactive)"}[in["stop_hook_active"].(bool)]
			if in["last_assistant_message"] == nil || in["permission_mode"] != "default" {
				t.Fatalf("Stop input %v", in)
			}
		case "SessionEnd":
			if in["reason"] != "other" || in["session_id"] != "s1" {
				t.Fatalf("SessionEnd input %v", in)
			}
		}
		events = append(events, ev)
	}
	if got := strings.Join(events, ","); got != "Stop(inactive),Stop(active),SessionEnd" {
		t.Fatalf("hook events %s", got)
	}
}

// UserPromptSubmit hooks see each prompt: their output is added to it as context,
// and a prompt they block (exit 2) never reaches the model.
func TestUserPromptSubmitHook(t *testing.T) {
	h := newAgentHarness(t, fakeanthropic.Response{Content: []wire.Block{text("Hello.")}})
	s := &workflows.TurnSettings{ProjectDir: h.work, Hooks: hooks.Config{UserPromptSubmit: []hooks.Group{{Hooks: []hooks.Command{{Command: `in=$(cat); ` +
		`case "$in" in *secret*) echo "prompts must not contain secrets" >&2; exit 2;; esac; echo "Today is a holiday."`}}}}}}
	res := h.result(h.start(workflows.SessionInput{Prompt: "Say hello", Settings: s, Options: fastOptions()}))
	if res.StopReason != "end_turn" {
		t.Fatalf("result %+v", res)
	}
	msgs := rawMessages(t, h.fake.Requests()[0])
	if m := string(msgs[0]); !strings.Contains(m, "Say hello") || !strings.Contains(m, "UserPromptSubmit hook additional context: Today is a holiday.") {
		t.Fatalf("first message %s", m)
	}
	res = h.result(h.start(workflows.SessionInput{SessionID: "s2", Prompt: "the secret is 42", Settings: s, Options: fastOptions()}))
	if res.StopReason != workflows.StopHook || !strings.Contains(res.HookReason, "prompts must not contain secrets") {
		t.Fatalf("blocked prompt: %+v", res)
	}
	if n := len(h.fake.Requests()); n != 1 {
		t.Fatalf("the blocked prompt was sent to the model (%d requests)", n)
	}
}

// A message sent while the UserPromptSubmit hooks of another run is neither lost nor
// sent unchecked: its own hooks run in a further round and both reach the model.
// Before keep-arrivals the hooks' step replaced the queue and the message vanished.
func TestMessageSentDuringPromptHooksIsKept(t *testing.T) {
	h := newAgentHarness(t, fakeanthropic.Response{Content: []wire.Block{text("Hello.")}})
	// Two FIFOs make the hook and the test wait on each other, not on a clock: the
	// hook opens "started" once it runs and blocks on "release" until the test has
	// sent its second message.
	dir := t.TempDir()
	started, release := filepath.Join(dir, "started"), filepath.Join(dir, "release")
	for _, f := range []string{started, release} {
		if err := syscall.Mkfifo(f, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	hook := fmt.Sprintf(`in=$(cat); case "$in" in *alpha*) echo > %q; read _ < %q;; esac; echo hooked`, started, release)
	s := &workflows.TurnSettings{ProjectDir: h.work, Hooks: hooks.Config{UserPromptSubmit: []hooks.Group{{Hooks: []hooks.Command{{Command: hook}}}}}}
	run := h.start(workflows.SessionInput{Prompt: "alpha", Settings: s, Options: fastOptions()})
	if _, err := os.ReadFile(started); err != nil { // returns once the hook has written
		t.Fatal(err)
	}
	if err := h.sendMessage(run.GetID(), "beta"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(release, []byte("\n"), 0o600); err != nil { // the hook is reading
		t.Fatal(err)
	}
	if res := h.result(run); res.StopReason != "end_turn" {
		t.Fatalf("result %+v", res)
	}
	var b strings.Builder
	for _, m := range rawMessages(t, h.fake.Requests()[0]) {
		b.Write(m)
	}
	first := b.String()
	for _, want := range []string{"alpha", "beta"} {
		if !strings.Contains(first, want) {
			t.Errorf("the first request lacks %q: %s", want, first)
		}
	}
	if n := strings.Count(first, "UserPromptSubmit hook additional context: hooked"); n != 2 {
		t.Errorf("hook context added %d times, want once per message: %s", n, first)
	}
}
