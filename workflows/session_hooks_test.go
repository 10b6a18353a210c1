package workflows_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/workflows"
)

// Session-level hooks as Claude Code runs them: SessionStart adds context to the
// first model call; a Stop hook that blocks keeps the agent going with its reason
// (and is told stop_hook_active the next time); SessionEnd runs at the end. Every
// hook's input is recorded by a real script.
func TestSessionHooksStartStopEnd(t *testing.T) {
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []conversation.Block{text("All done.")}},
		fakeanthropic.Response{Content: []conversation.Block{text("Tests pass too.")}},
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
	for _, in := range readJSONL(t, log) {
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
