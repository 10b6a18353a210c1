package workflows_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// waitState polls the State query until cond holds: the turn's state is another
// process's (the server's and the worker's), with no event to wait on here.
func (h *harness) waitState(run client.WorkflowRun, what string, cond func(workflows.TurnState) bool) workflows.TurnState {
	h.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := h.state(run)
		if cond(st) {
			return st
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s; state %+v", what, st)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func pendingIDs(st workflows.TurnState) []string {
	var ids []string
	for _, p := range st.Pending {
		ids = append(ids, p.ToolUseID)
	}
	return ids
}

func toolStatus(st workflows.TurnState, id string) scheduler.Status {
	for _, x := range st.Tools {
		if x.ID == id {
			return x.Status
		}
	}
	return ""
}

// An ask is a durable wait that only the asking tool waits in: a sibling runs and
// completes meanwhile; the State query shows what is pending; the validator refuses
// ids that are not waiting; Approve runs the call and Deny tells the model why.
func TestApproveAndDeny(t *testing.T) {
	work, outside := dirs(t)
	s := policy(t, work, permissions.BypassPermissions, nil, nil, []string{"Read(/" + outside + "/**)", "Bash(touch:*)"})
	s.AskTimeout = time.Hour
	h := realHarness(t)
	run := h.start(workflows.TurnInput{Workdir: work, CloseIntake: true, Settings: s, Blocks: []tool.Block{
		readOf("a1", filepath.Join(outside, "secret.txt")),
		readOf("r2", filepath.Join(work, "notes.txt")),
		bashB("a3", "touch approved-file"),
	}})
	st := h.waitState(run, "a1 pending and r2 done", func(st workflows.TurnState) bool {
		return strings.Join(pendingIDs(st), ",") == "a1" && toolStatus(st, "r2") == scheduler.Completed
	})
	if p := st.Pending[0]; toolStatus(st, "a1") != workflows.StatusAwaitingApproval || !strings.Contains(p.Reason, "permissions.ask") ||
		p.Tool != "Read" || !strings.HasPrefix(p.Description, "Read(") || !p.Deadline.Equal(p.Since.Add(time.Hour)) {
		t.Fatalf("state %+v", st)
	}
	// The Temporal UI's current details show the call as waiting for approval.
	deadline := time.Now().Add(10 * time.Second)
	for d := ""; !strings.Contains(d, "`a1`") || !strings.Contains(d, "awaiting"); d = metadata(t, h.c, run).GetCurrentDetails() {
		if time.Now().After(deadline) {
			t.Fatalf("current details:\n%s", d)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, id := range []string{"nope", "r2", "a3"} {
		if err := h.updateErr(run, contract.ApproveUpdate, workflows.ApprovalRequest{ToolUseID: id}); errorType(err) != contract.ErrNotAwaitingApproval || !strings.Contains(err.Error(), "is not waiting for approval; waiting: a1") {
			t.Fatalf("approve %s: %v", id, err)
		}
	}
	handle, err := h.update(run, contract.ApproveUpdate, workflows.ApprovalRequest{ToolUseID: "a1"})
	if err != nil {
		t.Fatal(err)
	}
	var answered workflows.PendingApproval
	if err := handle.Get(testenv.Context(t), &answered); err != nil || answered.ToolUseID != "a1" {
		t.Fatalf("approve a1: %+v %v", answered, err)
	}
	h.waitState(run, "a3 pending", func(st workflows.TurnState) bool { return strings.Join(pendingIDs(st), ",") == "a3" })
	h.mustUpdate(run, contract.DenyUpdate, workflows.ApprovalRequest{ToolUseID: "a3", Reason: "not on a Friday"})
	res := h.result(run)
	if r := byID(res.Results, "a1"); r.IsError || !strings.Contains(r.Content, "secret") {
		t.Fatalf("a1: %+v", r)
	}
	if r := byID(res.Results, "a3"); !r.IsError || !strings.Contains(r.Content, "The user denied permission") || !strings.Contains(r.Content, "The user said: not on a Friday") {
		t.Fatalf("a3: %+v", r)
	}
	replay(t, h, run)
}

// A new user message ends a wait for approval like any cancellable tool.
func TestInterruptEndsAnAsk(t *testing.T) {
	work, _ := dirs(t)
	s := policy(t, work, permissions.Default, nil, nil, nil)
	s.AskTimeout = time.Hour
	h := realHarness(t)
	run := h.start(workflows.TurnInput{Workdir: work, CloseIntake: true, Settings: s, Blocks: []tool.Block{bashB("b1", "touch x")}})
	st := h.waitState(run, "b1 pending", func(st workflows.TurnState) bool { return len(st.Pending) == 1 })
	if !st.Interruptible {
		t.Fatalf("a Bash waiting for approval must be interruptible: %+v", st)
	}
	if err := h.c.SignalWorkflow(testenv.Context(t), run.GetID(), run.GetRunID(), contract.InterruptSignal, nil); err != nil {
		t.Fatal(err)
	}
	if r := h.result(run).Results[0]; !r.IsError || r.Content != scheduler.InterruptedMessage {
		t.Fatalf("result %+v", r)
	}
}

// replay checks that a gated turn's recorded history replays on the current code:
// the pipeline's decisions are deterministic.
func replay(t *testing.T, h *harness, run client.WorkflowRun) {
	t.Helper()
	iter := h.c.GetWorkflowHistory(testenv.Context(t), run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var hist historypb.History
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		hist.Events = append(hist.Events, ev)
	}
	if err := replayEvents(&hist, ""); err != nil {
		t.Fatalf("replay of the gated turn: %v", err)
	}
}
