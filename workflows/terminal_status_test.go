package workflows_test

import (
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// A session cancelled while its turn runs a tool ends as "cancelled", and so does
// the turn: neither keeps ToolpipeStatus="running", which a visibility query for
// running sessions would list for ever.
func TestCancelledSessionStatus(t *testing.T) {
	ensureSearchAttributes(t)
	h := newAgentHarness(t, fakeanthropic.Response{Content: []wire.Block{use("t1", "Bash", map[string]any{"command": "sleep 60"})}})
	run := h.start(workflows.SessionInput{SessionID: "sess-cancel", Prompt: "go", Options: fastOptions(), SearchAttributes: true})
	turn := h.c.GetWorkflow(testenv.Context(t), run.GetID()+"/turn-1", "")
	awaitTool(t, h.c, turn, "executing")
	if err := h.c.CancelWorkflow(testenv.Context(t), run.GetID(), ""); err != nil {
		t.Fatal(err)
	}
	if err := run.Get(testenv.Context(t), nil); !temporal.IsCanceledError(err) {
		t.Fatalf("cancelled session ended with %v", err)
	}
	if got := statusOf(t, h.c, run); got != workflows.StatusCancelled {
		t.Errorf("cancelled session: ToolpipeStatus %q, want %q", got, workflows.StatusCancelled)
	}
	if got := statusOf(t, h.c, turn); got != workflows.StatusCancelled {
		t.Errorf("its turn: ToolpipeStatus %q, want %q", got, workflows.StatusCancelled)
	}
}

// A session or a turn that fails says "failed".
func TestFailedStatus(t *testing.T) {
	ensureSearchAttributes(t)
	h := newAgentHarness(t)
	session := h.start(workflows.SessionInput{SessionID: "bad/id", Prompt: "go", Options: fastOptions(), SearchAttributes: true})
	if err := session.Get(testenv.Context(t), nil); err == nil {
		t.Fatal("a session with a bad id did not fail")
	}
	if got := statusOf(t, h.c, session); got != workflows.StatusFailed {
		t.Errorf("failed session: ToolpipeStatus %q, want %q", got, workflows.StatusFailed)
	}

	th := newHarness(t)
	turn := th.start(workflows.TurnInput{SessionID: "sess-fail", SearchAttributes: true, CloseIntake: true,
		Blocks: []tool.Block{readB("r1"), readB("r1")}})
	if err := turn.Get(testenv.Context(t), nil); err == nil {
		t.Fatal("a turn with duplicate ids did not fail")
	}
	if got := statusOf(t, th.c, turn); got != workflows.StatusFailed {
		t.Errorf("failed turn: ToolpipeStatus %q, want %q", got, workflows.StatusFailed)
	}
}

// awaitTool polls a turn's State query until its first tool has the status (there
// is no event to wait on from outside the workflow).
func awaitTool(t *testing.T, c client.Client, run client.WorkflowRun, status string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		v, err := c.QueryWorkflow(testenv.Context(t), run.GetID(), "", contract.StateQuery)
		var st workflows.TurnState
		if err == nil && v.Get(&st) == nil && len(st.Tools) > 0 && string(st.Tools[0].Status) == status {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the turn's first tool never was %s (last: %+v, %v)", status, st, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// recordCancelledSessionHistory records a session with search attributes cancelled
// while its turn runs a tool: its last commands are the ended status.
func recordCancelledSessionHistory(t *testing.T, path string) {
	ensureSearchAttributes(t)
	h := newAgentHarness(t, fakeanthropic.Response{Content: []wire.Block{use("t1", "Bash", map[string]any{"command": "sleep 60"})}})
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: sessionReplayID, TaskQueue: h.queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: "rec", Prompt: "go", Workdir: h.work, Options: fastOptions(), SearchAttributes: true})
	if err != nil {
		t.Fatal(err)
	}
	awaitTool(t, h.c, h.c.GetWorkflow(testenv.Context(t), run.GetID()+"/turn-1", ""), "executing")
	if err := h.c.CancelWorkflow(testenv.Context(t), run.GetID(), run.GetRunID()); err != nil {
		t.Fatal(err)
	}
	_ = run.Get(testenv.Context(t), nil)
	testenv.WriteHistory(t, path, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
}

// recordFailedTurnHistory records a turn with search attributes that fails on its
// input.
func recordFailedTurnHistory(t *testing.T, path string) {
	ensureSearchAttributes(t)
	h := newHarness(t)
	run := h.start(workflows.TurnInput{SessionID: "sess-replay", SearchAttributes: true, CloseIntake: true,
		Blocks: []tool.Block{readB("r1"), readB("r1")}})
	_ = run.Get(testenv.Context(t), nil)
	testenv.WriteHistory(t, path, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
}
