package toolpipe

import (
	"context"
	"errors"
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// The wire types of Turns and Sessions (their JSON is the contract other languages
// use: docs/CROSS-LANGUAGE.md).
type (
	Block           = tool.Block
	ToolResult      = tool.Result
	TurnInput       = workflows.TurnInput
	TurnResult      = workflows.TurnResult
	TurnState       = workflows.TurnState
	CollectResponse = workflows.CollectResponse
	SessionInput    = workflows.SessionInput
	SessionResult   = workflows.SessionResult
	SessionState    = workflows.SessionState
	SessionEvent    = workflows.SessionEvent
	EventsResponse  = workflows.EventsResponse
)

// Client starts and drives Turns and Sessions on one task queue: the queue of a
// worker that Register was called on.
type Client struct {
	c        client.Client
	queue    string
	stateDir string
}

// ClientOption configures a Client.
type ClientOption func(*Client)

// WithStateDir names the state directory the workers of the task queue share. A
// closed turn's or session's state is read from its history (closed.go), and the
// payloads too large for history (a 5 MB Write) are read from its payload store.
func WithStateDir(dir string) ClientOption { return func(c *Client) { c.stateDir = dir } }

// NewClient wraps a Temporal client for the given task queue.
func NewClient(c client.Client, taskQueue string, opts ...ClientOption) *Client {
	cl := &Client{c: c, queue: taskQueue}
	for _, o := range opts {
		o(cl)
	}
	return cl
}

// StartTurn starts a Turn under workflow id id: the tool_use blocks of one assistant
// message (in.Blocks, with in.CloseIntake when that is all of them; or streamed in
// later with AddBlocks). A turn that ran or runs under id is attached to, never run
// again: after a crash, the same call finds its results (pick ids that name the
// message, as `starter run` does).
func (c *Client) StartTurn(ctx context.Context, id string, in TurnInput) (*Turn, error) {
	if id == "" {
		return nil, errors.New("toolpipe: StartTurn needs a workflow id")
	}
	in.Blocks = dropOversize(in.Blocks)
	run, err := c.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: c.queue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		StaticSummary:            workflows.TurnStaticSummary(in),
		StaticDetails:            workflows.TurnStaticDetails(in),
	}, workflows.TurnWorkflowName, in)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	switch {
	case errors.As(err, &started): // finished already: its result is kept
		run = c.c.GetWorkflow(ctx, id, "")
	case err != nil:
		return nil, fmt.Errorf("toolpipe: start turn %s: %w", id, err)
	}
	return &Turn{c: c.c, api: c, ID: id, run: run}, nil
}

// Turn returns a handle on the turn with workflow id id.
func (c *Client) Turn(id string) *Turn {
	return &Turn{c: c.c, api: c, ID: id, run: c.c.GetWorkflow(context.Background(), id, "")}
}

// Turn is a running or finished Turn workflow.
type Turn struct {
	c   client.Client
	api *Client
	run client.WorkflowRun
	// ID is the workflow id.
	ID string
}

// AddBlocks hands streamed tool_use blocks to the turn; each starts as soon as the
// scheduling rule allows. A block whose id the turn has is refused with
// workflows.ErrDuplicateToolUseID (see workflows.Rejected).
func (t *Turn) AddBlocks(ctx context.Context, blocks ...Block) error {
	return t.update(ctx, workflows.AddBlocksUpdate, nil, dropOversize(blocks))
}

// dropOversize drops the inputs over their tools' limits before they are sent,
// so that they are never stored: the turn answers each with the tool's size error
// (tool.Registry.DropOversizeInput; a program's own tools take the largest input
// any tool takes, as names the built-in registry does not know).
func dropOversize(blocks []Block) []Block {
	out := make([]Block, len(blocks))
	for i, b := range blocks {
		out[i] = activities.Builtins().DropOversizeInput(b)
	}
	return out
}

// CloseIntake says the assistant message has ended: the turn finishes once every
// call has a result.
func (t *Turn) CloseIntake(ctx context.Context) error {
	return t.update(ctx, workflows.CloseIntakeUpdate, nil)
}

// Collect waits for results yielded from index from on (arrival order); pass the
// response's Next to the next call, until Done. A turn that has finished takes no
// more updates: its results then come from the workflow's result.
func (t *Turn) Collect(ctx context.Context, from int) (CollectResponse, error) {
	var r CollectResponse
	err := t.update(ctx, workflows.CollectUpdate, &r, workflows.CollectRequest{From: from})
	if err == nil || !t.closed(ctx) {
		return r, err
	}
	res, rerr := t.Result(ctx)
	if rerr != nil {
		return r, rerr
	}
	if from < 0 || from > len(res.Results) {
		return r, fmt.Errorf("toolpipe: turn %s: cursor %d is out of range: the turn yielded %d results", t.ID, from, len(res.Results))
	}
	return CollectResponse{Results: res.Results[from:], Next: len(res.Results), Done: true}, nil
}

// closed reports whether the turn's workflow has ended.
func (t *Turn) closed(ctx context.Context) bool {
	d, err := t.c.DescribeWorkflowExecution(ctx, t.ID, "")
	return err == nil && d.GetWorkflowExecutionInfo().GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
}

// Result waits for the turn to end and returns every result in arrival order.
func (t *Turn) Result(ctx context.Context) (TurnResult, error) {
	var r TurnResult
	if err := t.run.Get(ctx, &r); err != nil {
		return r, fmt.Errorf("toolpipe: turn %s: %w", t.ID, err)
	}
	return r, nil
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
		return query[TurnState](ctx, t.c, "turn", t.ID, "state", workflows.StateQuery)
	}
	st, err := t.api.turnState(ctx, r)
	if err != nil {
		return st, fmt.Errorf("toolpipe: turn %s: state from its history: %w", t.ID, err)
	}
	return st, nil
}

// Approve lets a call that waits for approval run.
func (t *Turn) Approve(ctx context.Context, toolUseID string) error {
	return t.update(ctx, workflows.ApproveUpdate, nil, workflows.ApprovalRequest{ToolUseID: toolUseID})
}

// Deny refuses a call that waits for approval; the model reads reason.
func (t *Turn) Deny(ctx context.Context, toolUseID, reason string) error {
	return t.update(ctx, workflows.DenyUpdate, nil, workflows.ApprovalRequest{ToolUseID: toolUseID, Reason: reason})
}

// Interrupt is a new user message: calls of InterruptCancel tools stop.
func (t *Turn) Interrupt(ctx context.Context) error {
	return t.c.SignalWorkflow(ctx, t.ID, "", workflows.InterruptSignal, nil)
}

func (t *Turn) update(ctx context.Context, name string, out any, args ...any) error {
	return update(ctx, t.c, "turn", t.ID, name, name, out, args...)
}

// update runs update name on the workflow id (a kind, "turn" or "session") until it
// completes, and decodes its result into out (nil for none). Turns and sessions ask
// through here alike, and an error names the workflow and what was asked (what).
func update(ctx context.Context, c client.Client, kind, id, what, name string, out any, args ...any) error {
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, UpdateName: name, Args: args,
		WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = h.Get(ctx, out)
	}
	if err != nil {
		return fmt.Errorf("toolpipe: %s %s: %s: %w", kind, id, what, err)
	}
	return nil
}

// query asks the workflow id (a kind, "turn" or "session") queryType and decodes the
// answer into a T; an error names the workflow and what was asked (what), as update's.
func query[T any](ctx context.Context, c client.Client, kind, id, what, queryType string, args ...any) (T, error) {
	var r T
	v, err := c.QueryWorkflow(ctx, id, "", queryType, args...)
	if err == nil {
		err = v.Get(&r)
	}
	if err != nil {
		return r, fmt.Errorf("toolpipe: %s %s: %s: %w", kind, id, what, err)
	}
	return r, nil
}

// SessionWorkflowID is the workflow id of session s, as `starter agent` names it,
// so `starter agent status S` finds sessions started here too.
func SessionWorkflowID(sessionID string) string { return "session-" + sessionID }

// StartSession starts an agent session: the model is called with in.Prompt and the
// tools (the built-in ones, the registered custom ones, MCP ones), their calls run
// as Turns, until the model stops calling tools. A session running already is
// attached to; one that ended is continued (its conversation is in the state
// directory) with in.Prompt as the next user message.
func (c *Client) StartSession(ctx context.Context, in SessionInput) (*Session, error) {
	if in.SessionID == "" || in.Workdir == "" {
		return nil, errors.New("toolpipe: StartSession needs SessionInput.SessionID and Workdir")
	}
	id := SessionWorkflowID(in.SessionID)
	run, err := c.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: c.queue,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE, // continue an ended session
		StaticSummary:         workflows.SessionStaticSummary(in),
		StaticDetails:         workflows.SessionStaticDetails(in),
	}, workflows.SessionWorkflowName, in)
	if err != nil {
		return nil, fmt.Errorf("toolpipe: start session %s: %w", in.SessionID, err)
	}
	return &Session{c: c.c, api: c, ID: id, run: run}, nil
}

// Session returns a handle on the session with id sessionID.
func (c *Client) Session(sessionID string) *Session {
	id := SessionWorkflowID(sessionID)
	return &Session{c: c.c, api: c, ID: id, run: c.c.GetWorkflow(context.Background(), id, "")}
}

// Session is a running or finished Session workflow.
type Session struct {
	c   client.Client
	api *Client
	run client.WorkflowRun
	// ID is the workflow id.
	ID string
}

// Send is a new user message: it interrupts the running turn and is answered after.
func (s *Session) Send(ctx context.Context, text string) error {
	return update(ctx, s.c, "session", s.ID, "send", workflows.SendUpdate, nil, workflows.SendRequest{Text: text})
}

// Events returns what happened from cursor from on: messages, tool calls, results.
// The events are the running session's memory, not its history: a session that has
// closed answers Done with no more events, without a query (which would need a
// worker polling its task queue); its Result and State say how it ended.
func (s *Session) Events(ctx context.Context, from int) (EventsResponse, error) {
	r, err := closed(ctx, s.c, s.ID)
	if err != nil {
		return EventsResponse{}, fmt.Errorf("toolpipe: session %s: events: %w", s.ID, err)
	}
	if r != nil {
		return EventsResponse{Next: from, Done: true}, nil
	}
	return query[EventsResponse](ctx, s.c, "session", s.ID, "events", workflows.EventsQuery, from)
}

// State is where the session stands: phase, turns, tokens, cost. A session that
// has closed answers from its last run's history, without a query: phase done, and
// what its result holds (LastError says how a run that did not complete ended).
func (s *Session) State(ctx context.Context) (SessionState, error) {
	r, err := closed(ctx, s.c, s.ID)
	if err != nil {
		return SessionState{}, fmt.Errorf("toolpipe: session %s: state: %w", s.ID, err)
	}
	if r == nil {
		return query[SessionState](ctx, s.c, "session", s.ID, "state", workflows.SessionStateQuery)
	}
	st, err := s.api.sessionState(ctx, r)
	if err != nil {
		return st, fmt.Errorf("toolpipe: session %s: state from its history: %w", s.ID, err)
	}
	return st, nil
}

// Interrupt stops the running turn's cancel-able calls without a message.
func (s *Session) Interrupt(ctx context.Context) error {
	return s.c.SignalWorkflow(ctx, s.ID, "", workflows.SessionInterruptSignal, nil)
}

// Result waits for the session to end.
func (s *Session) Result(ctx context.Context) (SessionResult, error) {
	var r SessionResult
	if err := s.run.Get(ctx, &r); err != nil {
		return r, fmt.Errorf("toolpipe: session %s: %w", s.ID, err)
	}
	return r, nil
}
