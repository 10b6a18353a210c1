package workflows_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/fakeanthropic"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// planModeReplayID is the recorded plan-mode session's workflow id.
const planModeReplayID = "session-planmode-recorded"

// approveWhenAsked approves a call of the turn once it waits for approval: the
// turn may not have started, or not reached its gate, when the test asks first.
func approveWhenAsked(t *testing.T, c client.Client, turnID, toolUseID string) {
	t.Helper()
	ctx := testenv.Context(t)
	for {
		h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: turnID, UpdateName: contract.ApproveUpdate,
			Args: []any{workflows.ApprovalRequest{ToolUseID: toolUseID}}, WaitForStage: client.WorkflowUpdateStageCompleted})
		if err == nil {
			err = h.Get(ctx, nil)
		}
		var nf *serviceerror.NotFound
		var ae *temporal.ApplicationError
		switch {
		case err == nil:
			return
		case errors.As(err, &nf), errors.As(err, &ae) && ae.Type() == contract.ErrNotAwaitingApproval:
			select {
			case <-ctx.Done():
				t.Fatalf("approve %s in %s: %v", toolUseID, turnID, err)
			case <-time.After(20 * time.Millisecond):
			}
		default:
			t.Fatalf("approve %s in %s: %v", toolUseID, turnID, err)
		}
	}
}

// Plan mode as Claude Code's: ExitPlanMode outside plan mode is refused in its
// words; EnterPlanMode answers with its text; in plan mode a Write is refused (in a
// session with no permission policy at all, which plan mode gives one); the plan
// ExitPlanMode presents waits for a person, durably, in the turn; approving it
// ends plan mode, and the next Write runs.
func TestPlanModeRefusesWriteUntilThePlanIsApproved(t *testing.T) {
	h := newIdleAgentHarness(t)
	target := filepath.Join(h.work, "a.txt")
	write := map[string]any{"file_path": target, "content": "x\n"}
	h.fake.Add(
		fakeanthropic.Response{Content: []wire.Block{use("x0", "ExitPlanMode", map[string]any{})}},
		fakeanthropic.Response{Content: []wire.Block{use("p1", "EnterPlanMode", map[string]any{})}},
		fakeanthropic.Response{Content: []wire.Block{use("w1", "Write", write)}},
		fakeanthropic.Response{Content: []wire.Block{use("x1", "ExitPlanMode", map[string]any{"plan": "# Plan\n1. Write a.txt"})}},
		fakeanthropic.Response{Content: []wire.Block{use("w2", "Write", write)}},
		fakeanthropic.Response{Content: []wire.Block{text("written")}},
	)
	h.startWorker()
	id := planModeReplayID
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") != "1" {
		id = t.Name() + "-" + h.queue
	}
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: id, TaskQueue: h.queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: "pm", Prompt: "plan, then write a.txt", Workdir: h.work, Options: fastOptions()})
	if err != nil {
		t.Fatal(err)
	}
	approveWhenAsked(t, h.c, id+"/turn-4", "x1")
	if res := h.result(run); res.Text != "written" {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	if r := resultOf(t, reqs, "x0"); !r.IsError || r.Content != tool.UseError(tool.NotInPlanMode) {
		t.Errorf("ExitPlanMode outside plan mode: %+v", r)
	}
	if r := resultOf(t, reqs, "p1"); r.IsError || r.Content != tool.EnteredPlanMode {
		t.Errorf("EnterPlanMode: %+v", r)
	}
	if r := resultOf(t, reqs, "w1"); !r.IsError || !strings.Contains(r.Content, "plan mode is read-only") {
		t.Errorf("Write in plan mode: %+v, want refused", r)
	}
	if r := resultOf(t, reqs, "x1"); r.IsError || r.Content != tool.ApprovedPlan("# Plan\n1. Write a.txt") {
		t.Errorf("approved ExitPlanMode: %+v", r)
	}
	if r := resultOf(t, reqs, "w2"); r.IsError {
		t.Errorf("Write after the approval: %+v", r)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "x\n" {
		t.Errorf("a.txt: %q, %v", b, err)
	}
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		testenv.WriteHistory(t, filepath.FromSlash("testdata/session_history_planmode.json"), testenv.History(t, h.c, id, run.GetRunID()))
		testenv.WriteHistory(t, filepath.FromSlash("testdata/turn_history_planmode_exit.json"), testenv.History(t, h.c, id+"/turn-4", ""))
	}
}

// TestPlanModeReplay replays the recorded plan-mode session and the turn whose
// ExitPlanMode waited for approval.
func TestPlanModeReplay(t *testing.T) {
	replayHistory(t, "testdata/session_history_planmode.json", planModeReplayID)
	replayHistory(t, "testdata/turn_history_planmode_exit.json", planModeReplayID+"/turn-4")
}

// A session started in plan mode (--permission-mode plan) leaves it for the
// default mode when its plan is approved, and a deny rule naming a session tool
// disables it by name as it does any tool (Claude Code's words).
func TestPlanModeFromSettingsAndRulesByName(t *testing.T) {
	h := newIdleAgentHarness(t)
	target := filepath.Join(h.work, "b.txt")
	h.fake.Add(
		fakeanthropic.Response{Content: []wire.Block{use("c1", "TaskCreate", map[string]any{"subject": "s", "description": "d"})}},
		fakeanthropic.Response{Content: []wire.Block{use("x1", "ExitPlanMode", map[string]any{})}},
		fakeanthropic.Response{Content: []wire.Block{use("w1", "Write", map[string]any{"file_path": target, "content": "y"})}},
		fakeanthropic.Response{Content: []wire.Block{text("ok")}},
	)
	h.startWorker()
	known := func(name string) bool { _, ok := activities.Builtins().Lookup(name); return ok } // as starter loads settings
	deny, err := permissions.ParseRuleFor("TaskCreate", known)
	if err != nil {
		t.Fatal(err)
	}
	allowWrite, err := permissions.ParseRule("Write")
	if err != nil {
		t.Fatal(err)
	}
	pol := &permissions.Policy{Mode: permissions.Plan, WorkDir: h.work, Deny: []permissions.Rule{deny}, Allow: []permissions.Rule{allowWrite}}
	run := h.start(workflows.SessionInput{Prompt: "plan", Options: fastOptions(), Settings: &workflows.TurnSettings{Permissions: pol}})
	approveWhenAsked(t, h.c, run.GetID()+"/turn-2", "x1")
	if res := h.result(run); res.Text != "ok" {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	if r := resultOf(t, reqs, "c1"); !r.IsError || !strings.Contains(r.Content, "TaskCreate is disabled for this session") {
		t.Errorf("TaskCreate under a deny rule: %+v", r)
	}
	if r := resultOf(t, reqs, "x1"); r.IsError || r.Content != tool.ExitedPlanMode {
		t.Errorf("ExitPlanMode: %+v", r)
	}
	if r := resultOf(t, reqs, "w1"); r.IsError {
		t.Errorf("Write after the approval (default mode, allow rule): %+v", r)
	}
}

// PreToolUse hooks match the session tools by name, as any tool's: a hook that
// blocks TaskUpdate keeps the task as it was, and one matching EnterPlanMode sees
// its call (the hook writes what it read), which then runs.
func TestSessionToolsPreToolUseHooks(t *testing.T) {
	h := newIdleAgentHarness(t)
	seen := filepath.Join(h.work, "seen.jsonl")
	h.fake.Add(
		fakeanthropic.Response{Content: []wire.Block{use("c1", "TaskCreate", map[string]any{"subject": "s", "description": "d"})}},
		fakeanthropic.Response{Content: []wire.Block{use("u1", "TaskUpdate", map[string]any{"taskId": "1", "status": "completed"})}},
		fakeanthropic.Response{Content: []wire.Block{use("l1", "TaskList", map[string]any{}), use("e1", "EnterPlanMode", map[string]any{})}},
		fakeanthropic.Response{Content: []wire.Block{text("ok")}},
	)
	h.startWorker()
	s := &workflows.TurnSettings{ProjectDir: h.work, Hooks: hooks.Config{PreToolUse: []hooks.Group{
		{Matcher: "TaskUpdate", Hooks: []hooks.Command{{Command: `cat >/dev/null; echo "tasks stay open in this project" >&2; exit 2`}}},
		{Matcher: "EnterPlanMode", Hooks: []hooks.Command{{Command: `cat >> ` + seen}}},
	}}}
	if res := h.result(h.start(workflows.SessionInput{Prompt: "go", Settings: s, Options: fastOptions()})); res.Text != "ok" {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	if r := resultOf(t, reqs, "u1"); !r.IsError || !strings.Contains(r.Content, "tasks stay open in this project") {
		t.Errorf("TaskUpdate under a blocking hook: %+v", r)
	}
	if r := resultOf(t, reqs, "l1"); r.Content != "#1 [pending] s" {
		t.Errorf("TaskList after the blocked update: %q", r.Content)
	}
	if r := resultOf(t, reqs, "e1"); r.IsError || r.Content != tool.EnteredPlanMode {
		t.Errorf("EnterPlanMode: %+v", r)
	}
	if b, err := os.ReadFile(seen); err != nil || !strings.Contains(string(b), `"tool_name":"EnterPlanMode"`) {
		t.Errorf("the EnterPlanMode hook read %q (%v)", b, err)
	}
}
