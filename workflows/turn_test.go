package workflows_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// harness runs Turns on the shared server with a probe standing in for the tools.
type harness struct {
	t     *testing.T
	probe *probe
	queue string
	c     client.Client
	runs  int
}

// startID starts a turn and returns its workflow id.
func (h *harness) startID(in workflows.TurnInput) string { return h.start(in).GetID() }

func newHarness(t *testing.T) *harness {
	h := &harness{t: t, probe: newProbe(), queue: testenv.TaskQueue(t), c: testenv.Client()}
	testenv.StartWorker(t, h.queue, h.probe.register)
	return h
}

func (h *harness) start(in workflows.TurnInput) client.WorkflowRun {
	h.t.Helper()
	if in.SessionID == "" {
		in.SessionID = "s"
	}
	h.runs++
	run, err := h.c.ExecuteWorkflow(testenv.Context(h.t), client.StartWorkflowOptions{
		ID: fmt.Sprintf("%s-%s-%d", h.t.Name(), h.queue, h.runs), TaskQueue: h.queue,
	}, contract.TurnWorkflowName, in)
	if err != nil {
		h.t.Fatalf("start turn: %v", err)
	}
	return run
}

func (h *harness) run(blocks ...tool.Block) workflows.TurnResult {
	h.t.Helper()
	return h.result(h.start(workflows.TurnInput{Blocks: blocks, CloseIntake: true}))
}

func (h *harness) result(run client.WorkflowRun) workflows.TurnResult {
	h.t.Helper()
	var res workflows.TurnResult
	if err := run.Get(testenv.Context(h.t), &res); err != nil {
		h.t.Fatalf("turn failed: %v", err)
	}
	return res
}

func (h *harness) update(run client.WorkflowRun, name string, args ...any) (client.WorkflowUpdateHandle, error) {
	return h.c.UpdateWorkflow(testenv.Context(h.t), client.UpdateWorkflowOptions{
		WorkflowID: run.GetID(), RunID: run.GetRunID(), UpdateName: name, Args: args,
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
}

// updateErr runs an update to completion and returns its error, a rejection
// by the validator included.
func (h *harness) updateErr(run client.WorkflowRun, name string, args ...any) error {
	handle, err := h.update(run, name, args...)
	if err != nil {
		return err
	}
	return handle.Get(testenv.Context(h.t), nil)
}

func (h *harness) mustUpdate(run client.WorkflowRun, name string, args ...any) {
	h.t.Helper()
	if err := h.updateErr(run, name, args...); err != nil {
		h.t.Fatalf("update %s: %v", name, err)
	}
}

func (h *harness) waitEvent(ev string) {
	h.t.Helper()
	if err := h.probe.await(testenv.Context(h.t), ev, func() bool { return slices.Contains(h.probe.log, ev) }); err != nil {
		h.t.Fatal(err)
	}
}

func resultIDs(rs []tool.Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ToolUseID)
	}
	return out
}

func byID(rs []tool.Result, id string) tool.Result {
	for _, r := range rs {
		if r.ToolUseID == id {
			return r
		}
	}
	return tool.Result{}
}

// §3.3: safe tools overlap in time. r1 only finishes once r2 has started.
func TestSafeToolsOverlap(t *testing.T) {
	h := newHarness(t)
	h.probe.on("r1", waitStarted("r2"))
	res := h.run(readB("r1"), readB("r2"))
	if got := byID(res.Results, "r1"); got.IsError || got.Content != "overlapped r2" {
		t.Fatalf("r1 did not overlap r2: %+v", got)
	}
}

// §3.3-3.4: a non-safe tool runs alone, and nothing after it overtakes it.
func TestNonSafeRunsAloneInOrder(t *testing.T) {
	h := newHarness(t)
	h.probe.on("r1", waitStarted("r2"))
	res := h.run(readB("r1"), readB("r2"), editB("e1"), readB("r3"), readB("r4"))
	ev := h.probe.events()
	at := func(e string) int { return slices.Index(ev, e) }
	if !(at("end r1") < at("start e1") && at("end r2") < at("start e1")) {
		t.Fatalf("e1 started before the reads ended: %v", ev)
	}
	if !(at("end e1") < at("start r3") && at("end e1") < at("start r4")) {
		t.Fatalf("a later read overtook or overlapped e1: %v", ev)
	}
	if want := []string{"r1", "r2", "e1", "r3", "r4"}; !slices.Equal(resultIDs(res.Results), want) {
		t.Fatalf("results %v want %v", resultIDs(res.Results), want)
	}
}

// §3.5: results keep arrival order when later tools finish first.
func TestResultsInArrivalOrder(t *testing.T) {
	h := newHarness(t)
	h.probe.on("r1", func(ctx context.Context, p *probe) (tool.Output, error) {
		return tool.Output{Content: "late"}, p.await(ctx, "r2 and r3 to end", func() bool { return p.ended["r2"] && p.ended["r3"] })
	})
	res := h.run(readB("r1"), readB("r2"), readB("r3"))
	if got := resultIDs(res.Results); !slices.Equal(got, []string{"r1", "r2", "r3"}) {
		t.Fatalf("order %v", got)
	}
	if ev := h.probe.events(); slices.Index(ev, "end r1") < slices.Index(ev, "end r3") {
		t.Fatalf("r1 was meant to finish last: %v", ev)
	}
}

// §3.1 and §3.2/3.8: an unknown tool fails fast; a schema failure is an
// InputValidationError, never reaches an activity, and is treated as unsafe.
func TestUnknownToolAndSchemaFailure(t *testing.T) {
	h := newHarness(t)
	bad := tool.Block{ID: "bad", Name: tool.ReadName, Input: raw(map[string]any{"file_path": 7})}
	res := h.run(tool.Block{ID: "u1", Name: "NoSuchTool", Input: raw(map[string]any{})}, bad, readB("r1"))
	if r := byID(res.Results, "u1"); !r.IsError || r.Content != "<tool_use_error>Error: No such tool available: NoSuchTool</tool_use_error>" {
		t.Fatalf("unknown tool: %+v", r)
	}
	if r := byID(res.Results, "bad"); !r.IsError || !strings.HasPrefix(r.Content, "<tool_use_error>InputValidationError: ") {
		t.Fatalf("schema failure: %+v", r)
	}
	if slices.Contains(h.probe.events(), "start bad") || slices.Contains(h.probe.events(), "start u1") {
		t.Fatalf("an invalid call reached an activity: %v", h.probe.events())
	}
}

// §3.6: a Bash error cancels the running sibling and gives queued ones the synthetic
// error; the turn itself goes on and returns every result.
func TestBashErrorCancelsSiblings(t *testing.T) {
	h := newHarness(t)
	h.probe.on("r1", blockUntilCancelled)
	h.probe.on("b1", func(ctx context.Context, p *probe) (tool.Output, error) {
		if err := p.await(ctx, "r1 to start", func() bool { return p.running["r1"] }); err != nil {
			return tool.Output{}, err
		}
		return tool.Output{Content: "ls: cannot access '/nope'\nExit code 2", IsError: true}, nil
	})
	res := h.run(readB("r1"), bashB("b1", "ls /nope"), editB("e1"))
	want := scheduler.SiblingErrorMessage("Bash(ls /nope)")
	for _, id := range []string{"r1", "e1"} {
		if r := byID(res.Results, id); !r.IsError || r.Content != want {
			t.Errorf("%s: %+v, want %q", id, r, want)
		}
	}
	if r := byID(res.Results, "b1"); !r.IsError || !strings.Contains(r.Content, "Exit code 2") {
		t.Errorf("b1 keeps its own error: %+v", r)
	}
	if slices.Contains(h.probe.events(), "start e1") {
		t.Error("the queued edit ran after the Bash error")
	}
}

// §3.6: a Read failure cancels nothing.
func TestReadErrorCancelsNothing(t *testing.T) {
	h := newHarness(t)
	h.probe.on("r1", func(ctx context.Context, p *probe) (tool.Output, error) {
		return tool.Output{Content: "File does not exist: /tmp/r1", IsError: true}, nil
	})
	h.probe.on("r2", func(ctx context.Context, p *probe) (tool.Output, error) {
		return tool.Output{Content: "r2 done"}, p.await(ctx, "r1 to end", func() bool { return p.ended["r1"] })
	})
	res := h.run(readB("r1"), readB("r2"), editB("e1"))
	if r := byID(res.Results, "r2"); r.IsError || r.Content != "r2 done" {
		t.Errorf("r2 was disturbed by r1's error: %+v", r)
	}
	if r := byID(res.Results, "e1"); r.IsError {
		t.Errorf("e1 was disturbed by r1's error: %+v", r)
	}
}

// §3.7: an interrupt stops an executing cancel tool, keeps a block tool running, and
// the State query reports interruptibility.
func TestInterruptCancelAndBlock(t *testing.T) {
	h := newHarness(t)
	h.probe.on("r1", blockUntilCancelled)
	run := h.start(workflows.TurnInput{Blocks: []tool.Block{readB("r1")}})
	h.waitEvent("start r1")
	if st := h.state(run); !st.Interruptible {
		t.Fatalf("only a Read executing: want interruptible, got %+v", st)
	}
	if err := h.c.SignalWorkflow(testenv.Context(t), run.GetID(), run.GetRunID(), contract.InterruptSignal, nil); err != nil {
		t.Fatal(err)
	}
	h.waitEvent("end r1")

	// A block tool (Edit) keeps running through an interrupt; a queued cancel tool
	// behind it is aborted.
	release := make(chan struct{})
	h.probe.on("e1", func(ctx context.Context, p *probe) (tool.Output, error) {
		select {
		case <-release:
			return tool.Output{Content: "edited"}, nil
		case <-ctx.Done():
			return tool.Output{}, ctx.Err()
		}
	})
	h.mustUpdate(run, contract.AddBlocksUpdate, []tool.Block{editB("e1"), readB("r2")})
	h.waitEvent("start e1")
	if st := h.state(run); st.Interruptible {
		t.Fatalf("an Edit executing: want not interruptible, got %+v", st)
	}
	if err := h.c.SignalWorkflow(testenv.Context(t), run.GetID(), run.GetRunID(), contract.InterruptSignal, nil); err != nil {
		t.Fatal(err)
	}
	close(release)
	h.mustUpdate(run, contract.CloseIntakeUpdate)
	res := h.result(run)
	if r := byID(res.Results, "r1"); !r.IsError || r.Content != scheduler.InterruptedMessage {
		t.Errorf("r1: %+v", r)
	}
	if r := byID(res.Results, "e1"); r.IsError || r.Content != "edited" {
		t.Errorf("e1 (block) must finish: %+v", r)
	}
	if r := byID(res.Results, "r2"); !r.IsError || r.Content != scheduler.InterruptedMessage {
		t.Errorf("queued r2: %+v", r)
	}
}

func (h *harness) state(run client.WorkflowRun) workflows.TurnState {
	h.t.Helper()
	v, err := h.c.QueryWorkflow(testenv.Context(h.t), run.GetID(), run.GetRunID(), contract.StateQuery)
	if err != nil {
		h.t.Fatal(err)
	}
	var st workflows.TurnState
	if err := v.Get(&st); err != nil {
		h.t.Fatal(err)
	}
	return st
}

// Streaming intake: tools added mid-turn start while earlier ones still run; results
// are collected incrementally; the intake validator rejects bad blocks.
func TestStreamingIntakeAndCollect(t *testing.T) {
	h := newHarness(t)
	h.probe.on("r1", waitStarted("r2"))
	run := h.start(workflows.TurnInput{Blocks: []tool.Block{readB("r1")}})
	h.waitEvent("start r1")
	h.mustUpdate(run, contract.AddBlocksUpdate, []tool.Block{readB("r2")})

	var got []string
	cursor := 0
	for len(got) < 2 {
		handle, err := h.update(run, contract.CollectUpdate, workflows.CollectRequest{From: cursor})
		if err != nil {
			t.Fatal(err)
		}
		var resp workflows.CollectResponse
		if err := handle.Get(testenv.Context(t), &resp); err != nil {
			t.Fatal(err)
		}
		got = append(got, resultIDs(resp.Results)...)
		cursor = resp.Next
	}
	if !slices.Equal(got, []string{"r1", "r2"}) {
		t.Fatalf("collected %v", got)
	}
	for name, c := range map[string]struct {
		blocks  []tool.Block
		errType string
	}{
		"duplicate id": {[]tool.Block{readB("r1")}, contract.ErrDuplicateToolUseID},
		"no id":        {[]tool.Block{{Name: tool.ReadName, Input: raw(map[string]any{"file_path": "/x"})}}, contract.ErrMalformedBlock},
		"no name":      {[]tool.Block{{ID: "n1", Input: raw(map[string]any{"file_path": "/x"})}}, contract.ErrMalformedBlock},
	} {
		err := h.updateErr(run, contract.AddBlocksUpdate, c.blocks)
		if got := errorType(err); got != c.errType {
			t.Errorf("%s: AddBlocks answered %v (type %q), want a rejection of type %s", name, err, got, c.errType)
		}
	}
	release := make(chan struct{})
	h.probe.on("r3", func(ctx context.Context, p *probe) (tool.Output, error) {
		<-release
		return tool.Output{Content: "r3"}, nil
	})
	h.mustUpdate(run, contract.AddBlocksUpdate, []tool.Block{readB("r3")})
	h.mustUpdate(run, contract.CloseIntakeUpdate)
	err := h.updateErr(run, contract.AddBlocksUpdate, []tool.Block{readB("r9")})
	if errorType(err) != contract.ErrIntakeClosed || !strings.Contains(err.Error(), "intake is closed") {
		t.Errorf("AddBlocks after close: %v, want a rejection of type %s saying the intake is closed", err, contract.ErrIntakeClosed)
	}
	if err := h.updateErr(run, contract.CollectUpdate, workflows.CollectRequest{From: 99}); errorType(err) != contract.ErrBadCursor {
		t.Errorf("Collect from 99: %v, want a rejection of type %s", err, contract.ErrBadCursor)
	}
	close(release)
	if res := h.result(run); !slices.Equal(resultIDs(res.Results), []string{"r1", "r2", "r3"}) {
		t.Fatalf("result %v", resultIDs(res.Results))
	}
}

// errorType is the application error type of err, or "" when it has none: clients
// classify rejections on it.
func errorType(err error) string {
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) {
		return ae.Type()
	}
	return ""
}

// A Bash call whose input is refused never ran, so it cancels nothing: its siblings
// run and report their own results (Claude Code does the same).
func TestRejectedBashInputCancelsNothing(t *testing.T) {
	h := newHarness(t)
	bad := tool.Block{ID: "bad", Name: tool.BashName, Input: raw(map[string]any{"command": "echo a", "bogus": true})}
	res := h.run(bad, bashB("b1", "echo b"), editB("e1"))
	if r := byID(res.Results, "bad"); !r.IsError || !strings.Contains(r.Content, "An unexpected parameter `bogus` was provided") {
		t.Fatalf("rejected input: %+v", r)
	}
	for _, id := range []string{"b1", "e1"} {
		if r := byID(res.Results, id); r.IsError {
			t.Errorf("%s was cancelled by a rejected input: %+v", id, r)
		}
		if !slices.Contains(h.probe.events(), "start "+id) {
			t.Errorf("%s never ran: %v", id, h.probe.events())
		}
	}
}
