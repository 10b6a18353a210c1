package toolpipe

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/agentprompt"
	"github.com/toolpipe/toolpipe/modelinfo"
	"github.com/toolpipe/toolpipe/workflows"
)

// SessionWorkflowID is the workflow id of session s, as `starter agent` names it,
// so `starter agent status S` finds sessions started here too.
func SessionWorkflowID(sessionID string) string { return "session-" + sessionID }

// SessionOptions say where and how an agent session runs.
type SessionOptions struct {
	// SessionID names the session (its workflow is SessionWorkflowID) and its
	// conversation in the state directory. Required.
	SessionID string
	// Workdir is the tools' working directory, absolute. Required.
	Workdir string
	// Prompt is the user message that starts (or continues) the session. Empty
	// only attaches to a running session.
	Prompt string
	// Settings are the settings files every turn enforces, as for a turn.
	Settings *Settings
	// Model is the model's id; "" means claude-sonnet-4-5.
	Model string
	// MaxTokens bounds one assistant message; 0 means 8,192.
	MaxTokens int
	// ContextWindow is the model's window in tokens; 0 takes the table of known
	// models, else 200,000.
	ContextWindow int
	// Price is the model's price for the cost estimate; nil takes the table.
	Price *modelinfo.Price
	// SystemPrompt replaces toolpipe's default system prompt; the environment
	// (working directory, platform, date, git branch) and the project memory
	// (CLAUDE.md files) are added either way, then AppendSystemPrompt.
	SystemPrompt, AppendSystemPrompt string
	// MaxTurns bounds the model calls; 0 means 100.
	MaxTurns int
	// MaxBudgetUSD, when positive, ends the prompt once the estimated cost of the
	// model calls reaches it.
	MaxBudgetUSD float64
	// ModelAttempts bounds the tries of one model call that the API refuses for
	// overload, rate limits or its own errors; 0 means 10.
	ModelAttempts int
	// QuestionTimeout bounds how long the model's questions (AskUserQuestion)
	// wait for Session.Answer before it is told nobody answered; 0: until answered.
	QuestionTimeout time.Duration
	// HeartbeatTimeout is the tools' (TurnOptions) and the streaming model call's
	// heartbeat timeout; 0 takes their defaults (20 s and 30 s).
	HeartbeatTimeout time.Duration
	// Warn receives what the user should know that is not an error, as for a turn.
	Warn func(msg string)
	// Place puts the session on one host of a fleet before its first turn:
	// workers started with a host (cmd/worker --host) that share a blob store and
	// no disk; its tools then run on that host's own queue (README, "A fleet
	// without a shared disk").
	Place bool
	// Checkpoints captures the working directory into the blob store after every
	// turn that may change files (a placed session does anyway): SessionState's
	// Checkpoints say which turn produced which checkpoint (DESIGN §11).
	Checkpoints bool
	// Repo, URL[@REF] (anything git clone takes, file:// too; REF a branch, tag or
	// commit), is cloned into Workdir on the session's host before its first turn:
	// Workdir must not exist there yet, or be empty (a clone of the same repository
	// is kept, for a resumed session).
	Repo string
}

// StartSession starts an agent session: the model is called with opts.Prompt and
// the tools (the built-in ones, the workers' custom ones, the working directory's
// MCP servers'), their calls run as Turns, until the model stops calling tools. A
// session running already is attached to (Attached; the prompt is not sent: use
// Send); one that ended is continued (its conversation is in the state directory)
// with the prompt as the next user message. Without a prompt it only attaches,
// and a session that is not running is an error (IsInvalidInput).
func (c *Client) StartSession(ctx context.Context, opts SessionOptions) (*Session, error) {
	if err := checkPlace(opts.SessionID, opts.Workdir); err != nil {
		return nil, err
	}
	s := &Session{c: c.c, api: c, ID: SessionWorkflowID(opts.SessionID), queue: c.queue}
	if opts.Prompt == "" {
		d, err := c.c.DescribeWorkflowExecution(ctx, s.ID, "")
		if err == nil && d.GetWorkflowExecutionInfo().GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
			s.attach(d.GetExecutionConfig().GetTaskQueue().GetName(), d.GetWorkflowExecutionInfo().GetExecution().GetRunId())
			return s, nil
		}
		if err != nil && !IsNotFound(err) {
			return nil, fmt.Errorf("toolpipe: session %s: %w", opts.SessionID, err)
		}
		return nil, invalid("session %s is not running: give a prompt to start it", opts.SessionID)
	}
	in, err := c.sessionInput(ctx, opts)
	if err != nil {
		return nil, err
	}
	// A running session is an error here, so that a fresh start needs no second
	// look; an ended one is continued (ALLOW_DUPLICATE).
	run, err := c.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: s.ID, TaskQueue: c.queue,
		WorkflowIDReusePolicy:                    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		StaticSummary:                            workflows.SessionStaticSummary(in),
		StaticDetails:                            workflows.SessionStaticDetails(in),
	}, contract.SessionWorkflowName, in)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	switch {
	case err == nil:
		s.run, s.runID = run, run.GetRunID()
		return s, nil
	case !errors.As(err, &started):
		return nil, fmt.Errorf("toolpipe: start session %s: %w", opts.SessionID, err)
	}
	d, err := c.c.DescribeWorkflowExecution(ctx, s.ID, "")
	if err != nil {
		return nil, fmt.Errorf("toolpipe: session %s: %w", opts.SessionID, err)
	}
	s.attach(d.GetExecutionConfig().GetTaskQueue().GetName(), started.RunId)
	return s, nil
}

// sessionInput prepares a session's start input.
func (c *Client) sessionInput(ctx context.Context, o SessionOptions) (workflows.SessionInput, error) {
	p, err := c.prepare(ctx, o.SessionID, o.Workdir, o.Settings, c.warner(o.Warn))
	if err != nil {
		return workflows.SessionInput{}, err
	}
	home, _ := os.UserHomeDir()
	in := workflows.SessionInput{
		SessionID: o.SessionID, Prompt: o.Prompt, Workdir: o.Workdir, Settings: p.settings, MCP: p.mcp, SearchAttributes: p.attrs, FailedCallsAttribute: p.failed, Place: o.Place, Checkpoints: o.Checkpoints, Repo: o.Repo,
		SkillDirs: skillDirs(o.Workdir, o.Settings), // skills.go
		Model: workflows.ModelOptions{Model: o.Model, MaxTokens: o.MaxTokens, ContextWindow: o.ContextWindow, Price: o.Price,
			System: agentprompt.Build(agentprompt.Options{System: o.SystemPrompt, Append: o.AppendSystemPrompt, Workdir: o.Workdir, Home: home, Now: time.Now()})},
		Options: workflows.SessionOptions{MaxTurns: o.MaxTurns, MaxBudgetUSD: o.MaxBudgetUSD, ModelAttempts: int32(o.ModelAttempts), QuestionTimeout: o.QuestionTimeout,
			ModelHeartbeatTimeout: o.HeartbeatTimeout, Turn: workflows.TurnOptions{HeartbeatTimeout: o.HeartbeatTimeout}},
	}
	if in.Model.Model == "" {
		in.Model.Model = workflows.DefaultModel
	}
	return in, nil
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
	// ForkCheckpoint is, for a session Fork made, the checkpoint of its parent's
	// files that was restored into its working directory, and ForkFiles how many
	// files that wrote ("" and 0 when the directory was left as it was).
	ForkCheckpoint string
	ForkFiles      int

	queue    string
	runID    string
	attached bool
}

func (s *Session) attach(queue, runID string) {
	s.attached, s.runID = true, runID
	if queue != "" {
		s.queue = queue
	}
	s.run = s.c.GetWorkflow(context.Background(), s.ID, "")
}

// Attached says that StartSession found the session running instead of starting
// it: its prompt was not sent.
func (s *Session) Attached() bool { return s.attached }

// TaskQueue is the queue the session's workflow runs on, as StartSession knows it.
func (s *Session) TaskQueue() string { return s.queue }

// RunID is the session's run, as StartSession knows it ("" for a handle by id).
func (s *Session) RunID() string { return s.runID }

// Send is a new user message: it interrupts the running turn and is answered
// after it. It returns how many messages wait for the next model call.
func (s *Session) Send(ctx context.Context, text string) (queued int, err error) {
	var resp workflows.SendResponse
	err = update(ctx, s.c, "session", s.ID, "send", contract.SendUpdate, &resp, workflows.SendRequest{Text: text})
	return resp.Queued, err
}

// Compact has the session compact its conversation into a summary before its
// next model call, following instructions (empty: the default summary).
func (s *Session) Compact(ctx context.Context, instructions string) error {
	return update(ctx, s.c, "session", s.ID, "compact", contract.CompactUpdate, nil, workflows.CompactRequestArgs{Instructions: instructions})
}

// Events returns what happened from cursor from on (pass the returned next to
// the next call) and whether the session has ended. The events are the running
// session's memory, not its history: a session that has closed answers done with
// no more events, without a query (which would need a worker polling its task
// queue); its Result and State say how it ended.
func (s *Session) Events(ctx context.Context, from int) (events []SessionEvent, next int, done bool, err error) {
	d, err := s.c.DescribeWorkflowExecution(ctx, s.ID, "")
	if err != nil {
		return nil, from, false, fmt.Errorf("toolpipe: session %s: events: %w", s.ID, err)
	}
	if d.GetWorkflowExecutionInfo().GetCloseTime() != nil {
		return nil, from, true, nil
	}
	return s.events(ctx, from)
}

// events asks the running session for its events from cursor from.
func (s *Session) events(ctx context.Context, from int) ([]SessionEvent, int, bool, error) {
	r, err := query[workflows.EventsResponse](ctx, s.c, "session", s.ID, "events", contract.EventsQuery, from)
	if err != nil {
		return nil, from, false, err
	}
	out := make([]SessionEvent, len(r.Events))
	for i, e := range r.Events {
		out[i] = sessionEvent(e)
	}
	return out, r.Next, r.Done, nil
}

// followPoll is how often Follow asks a session for its new events.
const followPoll = 200 * time.Millisecond

// lastEventsWait bounds Follow's last question to a session that has closed: a
// worker of its queue answers in milliseconds, and when none polls any more the
// query would wait for its timeout.
const lastEventsWait = 2 * time.Second

// Follow hands the session's events to onEvent as they happen, in order, until
// the session closes, and returns its result. The close is learnt from the
// workflow's result (a long poll beside the event polling), not from the events: a
// session that failed or was terminated ends Follow with its error.
func (s *Session) Follow(ctx context.Context, onEvent func(SessionEvent)) (SessionResult, error) {
	type outcome struct {
		res SessionResult
		err error
	}
	closed := make(chan outcome, 1)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		res, err := s.Result(wctx)
		closed <- outcome{res, err}
	}()
	cursor := 0
	poll := func(ctx context.Context) {
		evs, next, _, err := s.events(ctx, cursor)
		if err != nil {
			return // a closed or failing session: its result says
		}
		for _, ev := range evs {
			if onEvent != nil {
				onEvent(ev)
			}
		}
		cursor = next
	}
	tick := time.NewTicker(followPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return SessionResult{}, fmt.Errorf("toolpipe: session %s: %w", s.ID, context.Cause(ctx))
		case o := <-closed:
			if s.api.answers == nil || s.api.answers(ctx, s.ID) { // WithQueryCheck
				last, cancel := context.WithTimeout(ctx, lastEventsWait)
				poll(last) // the last events, when a worker of its queue still answers
				cancel()
			}
			return o.res, o.err
		case <-tick.C:
			poll(ctx)
		}
	}
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
		st, err := query[workflows.SessionState](ctx, s.c, "session", s.ID, "state", contract.SessionStateQuery)
		return sessionState(st), err
	}
	st, err := s.api.sessionState(ctx, r)
	if err != nil {
		return st, fmt.Errorf("toolpipe: session %s: state from its history: %w", s.ID, err)
	}
	return st, nil
}

// Interrupt stops the running turn's cancel-able calls without a message.
func (s *Session) Interrupt(ctx context.Context) error {
	if err := s.c.SignalWorkflow(ctx, s.ID, "", contract.SessionInterruptSignal, nil); err != nil {
		return fmt.Errorf("toolpipe: session %s: interrupt: %w", s.ID, err)
	}
	return nil
}

// Result waits for the session's prompt to end.
func (s *Session) Result(ctx context.Context) (SessionResult, error) {
	var r workflows.SessionResult
	if err := s.run.Get(ctx, &r); err != nil {
		return SessionResult{}, fmt.Errorf("toolpipe: session %s: %w", s.ID, err)
	}
	return sessionResult(r), nil
}
