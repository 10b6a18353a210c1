package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/internal/testfs"
	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// A user message that interrupts a running Bash (behaviour cancel) runs its
// PostToolUseFailure hooks with is_interrupt: true and the interrupted result as
// the error, as Claude Code does; the model still gets the interrupted result.
func TestInterruptRunsFailureHooks(t *testing.T) {
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{use("s1", "Bash", map[string]any{"command": "echo started > marker; sleep 60"})}},
		fakeanthropic.Response{When: "please stop", Content: []wire.Block{text("stopped")}},
	)
	log := filepath.Join(h.work, "failures.jsonl")
	s := &workflows.TurnSettings{ProjectDir: h.work, Hooks: hooks.Config{PostToolUseFailure: []hooks.Group{{Matcher: "Bash",
		Hooks: []hooks.Command{{Command: `cat >> "$CLAUDE_PROJECT_DIR/failures.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/failures.jsonl"`}}}}}}
	run := h.start(workflows.SessionInput{Prompt: "wait", Settings: s, Options: fastOptions()})
	poll(t, "the Bash to start", func() bool { _, err := os.Stat(filepath.Join(h.work, "marker")); return err == nil })
	if err := h.sendMessage(run.GetID(), "please stop"); err != nil {
		t.Fatal(err)
	}
	if res := h.result(run); res.Text != "stopped" {
		t.Fatalf("result %+v", res)
	}
	if r := userResults(h.fake.Requests()[1].Messages[2])["s1"]; !r.IsError || r.Content != scheduler.InterruptedMessage {
		t.Fatalf("interrupted result %+v", r)
	}
	ins := testfs.ReadJSONValues(t, log)
	if len(ins) != 1 {
		t.Fatalf("%d PostToolUseFailure runs, want 1: %v", len(ins), ins)
	}
	in := ins[0]
	if in["hook_event_name"] != "PostToolUseFailure" || in["tool_name"] != "Bash" || in["tool_use_id"] != "s1" ||
		in["is_interrupt"] != true || in["error"] != scheduler.InterruptedMessage {
		t.Fatalf("hook input %v", in)
	}
	if cmd, _ := in["tool_input"].(map[string]any)["command"].(string); cmd != "echo started > marker; sleep 60" {
		t.Fatalf("tool_input %v", in["tool_input"])
	}
}

// interruptHookHistory is a recorded turn whose Bash was interrupted and ran its
// PostToolUseFailure hook (interrupt-failure-hooks).
const interruptHookHistory = "testdata/turn_history_interrupt_hooks.json"

// TestTurnInterruptHooksReplay replays a turn whose interrupted Bash ran its
// PostToolUseFailure hook; TOOLPIPE_RECORD_HISTORY=1 records it again.
func TestTurnInterruptHooksReplay(t *testing.T) {
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		h := realHarness(t)
		dir := t.TempDir()
		s := withHooks(nil, nil, group("Bash", `cat > "$CLAUDE_PROJECT_DIR/failure.json"`))
		s.ProjectDir = dir
		run := h.start(workflows.TurnInput{Workdir: dir, CloseIntake: true, Settings: s,
			Blocks: []tool.Block{bashB("b1", "echo started > marker; sleep 60")}})
		poll(t, "the Bash to start", func() bool { _, err := os.Stat(filepath.Join(dir, "marker")); return err == nil })
		if err := h.c.SignalWorkflow(testenv.Context(t), run.GetID(), run.GetRunID(), contract.InterruptSignal, nil); err != nil {
			t.Fatal(err)
		}
		if r := h.result(run).Results[0]; r.Content != scheduler.InterruptedMessage {
			t.Fatalf("result %+v", r)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "failure.json")); err != nil || !strings.Contains(string(b), `"is_interrupt":true`) {
			t.Fatalf("hook input %s %v", b, err)
		}
		testenv.WriteHistory(t, interruptHookHistory, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
	}
	replayHistory(t, interruptHookHistory, "")
}
