package toolpipe

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// TurnOptions say where and how a turn runs.
type TurnOptions struct {
	// SessionID groups turns: persisted results and the files read live under it,
	// and it names the turn's workflow (TurnID). Required; it must be usable as a
	// directory name.
	SessionID string
	// Workdir is the tools' working directory, absolute. Required.
	Workdir string
	// Stream says the blocks given are the first of an assistant message that is
	// still streaming: more come through Turn.AddBlocks, and Turn.CloseIntake ends
	// the message. The turn is named by the first block alone.
	Stream bool
	// Settings are the settings files the turn enforces; nil enforces none (every
	// call runs, no hook) and lists no MCP tools.
	Settings *Settings
	// HeartbeatTimeout is how long a silent tool counts as alive: it bounds how
	// fast a lost worker is noticed when its process cannot be known dead. 0 means
	// 20 s.
	HeartbeatTimeout time.Duration
	// Warn receives what the user should know that is not an error: parts of the
	// settings toolpipe ignores, read state that could not be recorded. nil logs
	// them (WithLogger).
	Warn func(msg string)
}

// StartTurn starts the turn that runs the tool_use blocks of one assistant
// message, or attaches to it when it ran or runs already. Its workflow id is
// TurnID(opts.SessionID, blocks) and it keeps a digest of the message (each
// block's id, name and input), so that the same message again (after a crash, a
// Ctrl-C) finds its turn and no call runs twice, while another message reusing
// the ids is refused (TurnCollisionError) instead of getting the other message's
// results.
//
// The turn starts with the files the session's earlier turns read (WithStateDir),
// the settings opts.Settings names, and the working directory's MCP servers when
// the workspace is trusted. A fresh start costs one RPC; attaching costs one more,
// which tells whose message the turn ran and where it runs.
func (c *Client) StartTurn(ctx context.Context, blocks []Block, opts TurnOptions) (*Turn, error) {
	if err := checkPlace(opts.SessionID, opts.Workdir); err != nil {
		return nil, err
	}
	if len(blocks) == 0 {
		return nil, invalid("a turn needs at least one tool_use block")
	}
	warn := c.warner(opts.Warn)
	in := workflows.TurnInput{SessionID: opts.SessionID, Workdir: opts.Workdir, Blocks: wireBlocks(blocks), CloseIntake: !opts.Stream}
	named := in.Blocks
	if opts.Stream {
		named = named[:1]
	}
	id, digest := turnID(opts.SessionID, named), messageDigest(named)
	files, err := c.readFiles(opts.SessionID)
	if err != nil {
		return nil, err
	}
	in.Context.ReadFiles = files
	in.Options.HeartbeatTimeout = opts.HeartbeatTimeout
	p, err := c.prepare(ctx, opts.SessionID, opts.Workdir, opts.Settings, warn)
	if err != nil {
		return nil, err
	}
	in.Settings, in.MCP, in.SearchAttributes, in.FailedCallsAttribute = p.settings, p.mcp, p.attrs, p.failed
	t := &Turn{c: c.c, api: c, ID: id, session: opts.SessionID, warn: warn, queue: c.queue}
	// A turn that exists (running, or closed: REJECT_DUPLICATE) is an error here, so
	// that a fresh start needs no second look; only an existing one is described.
	run, err := c.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: c.queue,
		WorkflowIDReusePolicy:                    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		StaticSummary:                            workflows.TurnStaticSummary(in),
		StaticDetails:                            workflows.TurnStaticDetails(in),
		Memo:                                     map[string]any{messageMemo: digest},
	}, contract.TurnWorkflowName, in)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	switch {
	case err == nil:
		t.run, t.runID = run, run.GetRunID()
		return t, nil
	case !errors.As(err, &started):
		return nil, fmt.Errorf("toolpipe: start turn %s: %w", id, err)
	}
	d, err := c.c.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return nil, fmt.Errorf("toolpipe: turn %s: %w", id, err)
	}
	same, err := sameMessage(d.GetWorkflowExecutionInfo().GetMemo(), id, digest)
	if err != nil {
		return nil, err
	}
	if !same {
		ids := make([]string, len(named))
		for i, b := range named {
			ids[i] = b.ID
		}
		return nil, &TurnCollisionError{SessionID: opts.SessionID, TurnID: id, IDs: ids}
	}
	t.described(d)
	return t, nil
}

// Turn returns a handle on the turn with workflow id id, running or closed.
func (c *Client) Turn(id string) *Turn {
	return &Turn{c: c.c, api: c, ID: id, warn: c.warner(nil),
		run: c.c.GetWorkflow(context.Background(), id, "")}
}

// Turn is a running or finished Turn workflow.
type Turn struct {
	c   client.Client
	api *Client
	run client.WorkflowRun
	// ID is the workflow id.
	ID string

	session  string // "" for a handle by id: its read state is not recorded
	warn     func(string)
	queue    string
	runID    string
	attached bool
	closure  *Closure

	done sync.Once
}

// described takes what the description of the existing turn says.
func (t *Turn) described(d *workflowservice.DescribeWorkflowExecutionResponse) {
	info := d.GetWorkflowExecutionInfo()
	t.attached = true
	t.runID = info.GetExecution().GetRunId()
	t.run = t.c.GetWorkflow(context.Background(), t.ID, "")
	if q := d.GetExecutionConfig().GetTaskQueue().GetName(); q != "" {
		t.queue = q
	}
	if info.GetCloseTime() != nil {
		t.closure = &Closure{How: strings.ToLower(strings.TrimPrefix(info.GetStatus().String(), "WORKFLOW_EXECUTION_STATUS_")),
			At: info.GetCloseTime().AsTime()}
	}
}

// Attached says that StartTurn found the turn already started (by an earlier
// run of the same message) instead of starting it.
func (t *Turn) Attached() bool { return t.attached }

// Finished says, for a turn StartTurn attached to, that it had closed already:
// its results come from its history and no call runs again. nil otherwise.
func (t *Turn) Finished() *Closure { return t.closure }

// TaskQueue is the queue the turn's workflow runs on (as StartTurn knows it):
// the client's, or for a turn attached to, the one it was started on.
func (t *Turn) TaskQueue() string { return t.queue }

// RunID is the turn's run, as StartTurn knows it ("" for a handle by id).
func (t *Turn) RunID() string { return t.runID }

// AddBlocks hands streamed tool_use blocks to the turn; each starts as soon as the
// scheduling rule allows. A block whose id the turn has is refused
// (IsDuplicateToolUseID), as a malformed one is (IsMalformedBlock).
func (t *Turn) AddBlocks(ctx context.Context, blocks ...Block) error {
	return t.update(ctx, contract.AddBlocksUpdate, nil, wireBlocks(blocks))
}

// CloseIntake says the assistant message has ended: the turn finishes once every
// call has a result.
func (t *Turn) CloseIntake(ctx context.Context) error {
	return t.update(ctx, contract.CloseIntakeUpdate, nil)
}

// Follow hands each result to onResult as the turn yields it, in arrival order,
// and returns the turn's result when it has ended: each result crosses the wire
// once. A server that is away for a moment (an embedded server another process
// restarts) is waited for; a turn that closed meanwhile is read from its result.
// onResult may be nil.
func (t *Turn) Follow(ctx context.Context, onResult func(ToolResult)) (TurnResult, error) {
	var got []ToolResult
	deliver := func(rs []tool.Result) {
		for _, r := range rs {
			got = append(got, ToolResult(r))
			if onResult != nil {
				onResult(ToolResult(r))
			}
		}
	}
	from := 0
	for t.closure == nil {
		var resp workflows.CollectResponse
		err := t.update(ctx, contract.CollectUpdate, &resp, workflows.CollectRequest{From: from})
		if err != nil && ctx.Err() == nil && transient(err) {
			pause(ctx, 200*time.Millisecond)
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return TurnResult{}, fmt.Errorf("toolpipe: turn %s: %w", t.ID, context.Cause(ctx))
			}
			break // closed (or failed): its result says
		}
		deliver(resp.Results)
		from = resp.Next
		if !resp.Done {
			continue
		}
		if resp.Final == nil {
			break // a worker from before Final: the workflow's result has the rest
		}
		res := turnResult(*resp.Final)
		res.Results = got
		t.finish(res)
		return res, nil
	}
	res, err := t.Result(ctx)
	if err != nil {
		return res, err
	}
	if from > len(res.Results) {
		return res, fmt.Errorf("toolpipe: turn %s: %d results were collected, its result holds %d", t.ID, from, len(res.Results))
	}
	deliver(toolResultsWire(res.Results[from:]))
	res.Results = got
	return res, nil
}

// toolResultsWire is the inverse of toolResults, for Follow's delivery.
func toolResultsWire(rs []ToolResult) []tool.Result {
	out := make([]tool.Result, len(rs))
	for i, r := range rs {
		out[i] = tool.Result(r)
	}
	return out
}

// Result waits for the turn to end and returns every result in arrival order.
func (t *Turn) Result(ctx context.Context) (TurnResult, error) {
	var r workflows.TurnResult
	if err := t.run.Get(ctx, &r); err != nil {
		return TurnResult{}, fmt.Errorf("toolpipe: turn %s: %w", t.ID, err)
	}
	res := turnResult(r)
	t.finish(res)
	return res, nil
}

// finish records, once, the files the turn read for the session's next turns.
// Failing to record them does not undo the turn: its results stand, with a warning.
func (t *Turn) finish(res TurnResult) {
	t.done.Do(func() {
		if t.session == "" {
			return
		}
		if err := t.api.keepReadFiles(t.session, res.ReadFiles); err != nil {
			t.warn(err.Error())
		}
	})
}

// State is each call's state, the calls awaiting approval and the notices. A turn
// that has closed answers from its history, without a query (which would need a
// worker polling its task queue): its calls are yielded, or StatusUnfinished when
// the turn failed or was terminated before they ended.
func (t *Turn) State(ctx context.Context) (TurnState, error) {
	r, err := closed(ctx, t.c, t.ID)
	if err != nil {
		return TurnState{}, fmt.Errorf("toolpipe: turn %s: state: %w", t.ID, err)
	}
	if r == nil {
		st, err := query[workflows.TurnState](ctx, t.c, "turn", t.ID, "state", contract.StateQuery)
		return turnState(st), err
	}
	st, err := t.api.turnState(ctx, r)
	if err != nil {
		return st, fmt.Errorf("toolpipe: turn %s: state from its history: %w", t.ID, err)
	}
	return st, nil
}

// Approve lets a call that waits for approval run, and returns what it approved.
// A call that does not wait is refused (IsNotAwaitingApproval).
func (t *Turn) Approve(ctx context.Context, toolUseID string) (PendingApproval, error) {
	var p workflows.PendingApproval
	err := t.update(ctx, contract.ApproveUpdate, &p, workflows.ApprovalRequest{ToolUseID: toolUseID})
	return PendingApproval(p), t.answerErr(ctx, "approve", toolUseID, err)
}

// Deny refuses a call that waits for approval; the model reads reason. A call that
// does not wait is refused (IsNotAwaitingApproval).
func (t *Turn) Deny(ctx context.Context, toolUseID, reason string) (PendingApproval, error) {
	var p workflows.PendingApproval
	err := t.update(ctx, contract.DenyUpdate, &p, workflows.ApprovalRequest{ToolUseID: toolUseID, Reason: reason})
	return PendingApproval(p), t.answerErr(ctx, "deny", toolUseID, err)
}

// answerErr is an approval's error. A turn that has finished, or is finishing as
// the answer arrives (the server aborts the update: "aborted by closing
// workflow"), has no call waiting: that is IsNotAwaitingApproval, as for a running
// turn's call that does not wait, whichever side of the turn's end the answer
// lands on. A turn that does not exist keeps the server's NotFound.
func (t *Turn) answerErr(ctx context.Context, what, toolUseID string, err error) error {
	var nf *serviceerror.NotFound
	if err == nil || !errors.As(err, &nf) {
		return err
	}
	if _, derr := t.c.DescribeWorkflowExecution(ctx, t.ID, ""); derr != nil {
		return err
	}
	return fmt.Errorf("toolpipe: turn %s: %s: %w", t.ID, what, temporal.NewApplicationErrorWithOptions(
		fmt.Sprintf("tool_use %q is not waiting for approval: the turn has finished", toolUseID),
		contract.ErrNotAwaitingApproval, temporal.ApplicationErrorOptions{NonRetryable: true}))
}

// Interrupt is a new user message: calls of InterruptCancel tools stop.
func (t *Turn) Interrupt(ctx context.Context) error {
	if err := t.c.SignalWorkflow(ctx, t.ID, "", contract.InterruptSignal, nil); err != nil {
		return fmt.Errorf("toolpipe: turn %s: interrupt: %w", t.ID, err)
	}
	return nil
}

func (t *Turn) update(ctx context.Context, name string, out any, args ...any) error {
	return update(ctx, t.c, "turn", t.ID, name, name, out, args...)
}
