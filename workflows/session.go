package workflows

import (
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/preview"
	"github.com/toolpipe/toolpipe/modelinfo"
	"github.com/toolpipe/toolpipe/tool"
)

// session is the state of one run of a Session workflow. It holds references to the
// stored conversation and the budget state, never past messages' texts, so that the
// workflow's history and memory stay small however long the conversation.
type session struct {
	// names are the activity and workflow types the session schedules (names.go).
	names typeNames
	// tools are the worker's (Workflows): offered to the model, and what the
	// budget exempts.
	tools *tool.Registry
	// promptSeq is the event index of the user prompt being answered
	// (session_prompt_id.go).
	promptSeq int

	in    SessionInput
	opts  SessionOptions
	model ModelOptions

	state      *budget.State
	head       conversation.Head
	resultsDir string
	context    tool.Context

	// pendingResults answers the last assistant message; pendingUser are messages
	// the user sent since the last model call. Both go into the next one.
	pendingResults []tool.Result
	pendingUser    []conversation.Message
	// toolNames maps the pending results' ids to tool names (budget exemptions).
	toolNames map[string]string

	turns, callsThisRun, runs int
	usage                     conversation.Usage
	// lastUsage is the last model call's; cost the estimate of all of them, in USD.
	lastUsage              conversation.Usage
	cost                   float64
	lastText               string
	stopReason, hookReason string
	// lastError is the message of the model failure that ended the prompt, if any.
	lastError string
	// ctxBytes is the size of the conversation the last model call sent, to estimate
	// the next call's tokens (session_compact.go); triedCompact says the current call
	// was refused as too long once and compacted; manualCompact holds a compaction
	// asked for by the user (its instructions); compactions counts them.
	ctxBytes     int
	triedCompact bool
	// refused is the refusal being answered by a compaction (session_window.go).
	refused       *modelinfo.TooLong
	manualCompact *string
	compactions   int
	// modelStop is the last model call's stop reason and lastResults the size of the
	// last results message after the budget, for the current details.
	modelStop   string
	lastResults int
	done        bool
	phase       SessionPhase

	turnID string
	turn   workflow.ChildWorkflowFuture
	// slot is the Turn the running model call may start (session_turn.go).
	slot turnSlot

	// mcpTools are this run's MCP tools (listMCP), offered to the model and the turns.
	mcpTools []tool.MCPSpec
	// tasks are the sub-agents of the current step by tool_use id, started as their
	// blocks stream (contract.StartTaskUpdate) or when the message has ended; they are started
	// in taskCtx from taskPrefix, the conversation the model was sent.
	tasks      map[string]workflow.Future
	taskCtx    workflow.Context
	taskPrefix conversation.Conversation

	events    []SessionEvent
	eventBase int

	// stopHookActive: the agent goes on because a Stop hook blocked (session_hooks.go).
	stopHookActive bool
	// checkedUser is how many of pendingUser UserPromptSubmit hooks have seen.
	checkedUser int
	// bg are the background shells (session_background.go).
	bg backgroundTasks
	// wakeup is the pending ScheduleWakeup, noopStreak the quiet rounds in a row
	// (session_schedulewakeup.go).
	wakeup     *Wakeup
	noopStreak int
	// questions are the AskUserQuestion calls waiting for a person
	// (session_askuserquestion.go).
	questions pendingQuestions
	// promptInterrupted: contract.InterruptPromptSignal came; the prompt ends after the
	// running step (session_control.go).
	promptInterrupted bool
	// own is the state of the tools the session answers: the task list and plan
	// mode (session_tools.go).
	own SessionToolState
	// checkpoints are the workspace's checkpoints, oldest first; ckptOn says whether
	// this run takes them (once asked), ckptPending that a capture runs
	// (session_checkpoint.go).
	checkpoints []TurnCheckpoint
	ckptOn      *bool
	ckptPending bool
	// historyLines are this run's newest model calls (session_rewind.go), for the
	// details.
	historyLines []HistoryLine
	// forked is what a fork's run restored into its working directory
	// (session_rewind_code.go).
	forked *CodeRewind
	// moves counts the times the session moved off a lost host (host_loss.go).
	moves int
	// latest is the last state of the session's workspace timeline when this run
	// opened it (session_catch_up.go); nil: none.
	latest *conversation.WorkspaceState

	// History and rewinds (session_rewind.go): found says the store had the session
	// (or this run made it, a fork); loopDone that the prompt's loop has ended, so
	// a rewind may move the head; controls counts the rewinds served; markTurn,
	// markBefore and markPrompt are what the next mark records.
	found, loopDone bool
	controls        int
	markTurn        int
	markSent        conversation.Conversation
	markBefore      *conversation.Conversation // nil: not known (a new run)
	markPrompt      string
}

// Session is an agent's query loop: call the model, run the turn its tool calls
// make, append the results, and repeat until the model stops calling tools, a hook
// stops it or the turn limit is reached. The conversation budget is applied before
// every model call; messages live in the store. Users add messages with contract.SendUpdate.
func (w *Workflows) Session(ctx workflow.Context, in SessionInput) (SessionResult, error) {
	logSessionStart(ctx, in) // lifecycle_log.go
	s := &session{tools: w.tools, in: in, opts: in.Options.withDefaults(), model: in.Model.withDefaults(), toolNames: map[string]string{}, phase: PhaseIdle}
	// Not deferred: the SDK unwinds an evicted workflow's coroutines with Goexit,
	// which runs defers, and a workflow that is still running must not log its end.
	res, err := s.run(ctx, in)
	s.ended(ctx, err) // lifecycle_log.go
	return res, err
}

// run is the body of Session.
func (s *session) run(ctx workflow.Context, in SessionInput) (SessionResult, error) {
	if err := preview.ValidateName("session id", in.SessionID); err != nil {
		return SessionResult{}, temporal.NewApplicationErrorWithOptions(err.Error(), contract.ErrBadSessionInput,
			temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	s.names = useTypeNames(ctx) // names.go
	// Registering a handler lets updates that came with the first workflow task run
	// (the SDK yields to them): a message sent then must find the carried state and
	// the prompt in place, or restoring would drop it and the prompt would follow it.
	if in.Carry != nil {
		s.restore(in.Carry)
	} else if in.Prompt != "" {
		s.userPrompt(in.Prompt) // session_prompt_id.go
	}
	if err := s.register(ctx); err != nil {
		return SessionResult{}, err
	}
	s.serveBackground(ctx)               // session_background.go; after restore, which fills s.bg
	if err := s.place(ctx); err != nil { // fleet.go
		return SessionResult{}, err
	}
	if err := s.prepareWorkspace(ctx); err != nil { // session_source.go
		return SessionResult{}, err
	}
	if in.Carry == nil {
		if err := s.open(ctx); err != nil {
			return SessionResult{}, err
		}
		s.catchUp(ctx)         // session_catch_up.go: before anything reads the workspace
		if in.Control != nil { // a run that only rewinds or forks (session_rewind.go)
			return s.control(ctx)
		}
		s.linkParent(ctx)                                           // session_rewind.go
		s.sessionStart(ctx, s.head.Next > 1 || s.head.Parent != "") // session_hooks.go: a fork resumes its parent's
		s.listSkills(ctx)                                           // session_skills.go
		s.checkpointBaseline(ctx)                                   // session_checkpoint.go
	}
	s.listMCP(ctx)
	s.publish(ctx)
	for {
		s.userPromptHooks(ctx) // session_hooks.go
		if err := s.appendPending(ctx); err != nil {
			return SessionResult{}, err
		}
		s.publish(ctx)
		s.interruptedStop() // session_control.go
		if s.stopReason != "" {
			break
		}
		if s.shouldContinueAsNew(ctx) && !s.backgroundRunning() { // a run's tasks end with it
			s.awaitCheckpoint(ctx) // session_checkpoint.go
			if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
				return SessionResult{}, err
			}
			return SessionResult{}, workflow.NewContinueAsNewError(ctx, s.names.of(contract.SessionWorkflowName), s.carryInput())
		}
		if err := s.maybeCompact(ctx); err != nil {
			if s.endPrompt(ctx, err) {
				continue
			}
			return SessionResult{}, err
		}
		reply, tr, err := s.step(ctx)
		if retry, cerr := s.retryTooLong(ctx, err); retry {
			continue
		} else if cerr != nil {
			err = cerr
		}
		if err != nil {
			if s.endPrompt(ctx, err) {
				continue // messages sent meanwhile are stored before the loop stops
			}
			return SessionResult{}, err
		}
		s.decide(reply, tr)
		if err := s.recordTurn(ctx, reply); err != nil { // session_rewind.go
			return SessionResult{}, err
		}
		s.stopHooks(ctx)                                // session_hooks.go
		if err := s.sleepUntilWakeup(ctx); err != nil { // session_schedulewakeup.go
			return SessionResult{}, err
		}
		if err := s.awaitBackground(ctx); err != nil { // session_background.go
			return SessionResult{}, err
		}
		s.publish(ctx)
	}
	s.loopDone = true      // a rewind waiting for the prompt to end goes on (session_rewind.go)
	s.stopBackground(ctx)  // session_background.go
	s.awaitCheckpoint(ctx) // session_checkpoint.go
	s.sessionEnd(ctx)      // session_hooks.go
	s.release(ctx)         // fleet.go
	s.done, s.phase = true, PhaseDone
	s.publish(ctx)
	s.note(SessionEvent{Kind: EventStop, Text: strings.TrimSpace(s.stopReason + " " + s.hookReason)})
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return SessionResult{}, err
	}
	return SessionResult{
		SessionID: in.SessionID, StopReason: s.stopReason, HookReason: s.hookReason, Text: s.lastText, Turns: s.turns, LastTurn: s.head.LastTurn,
		Conversation: s.head.Conversation, Budget: s.state, Usage: s.usage, Error: s.lastError, Cost: s.cost,
		Checkpoints: s.checkpoints,
	}, nil
}

// decide records a finished step and says whether the loop goes on.
func (s *session) decide(reply conversation.ModelReply, tr TurnResult) {
	s.turns++
	s.modelStop = reply.StopReason
	switch {
	case tr.Stop:
		// A hook answered continue: false (DESIGN §5): the turn's results are still
		// stored (the loop appends them before it stops), but the model is not called.
		s.stopReason, s.hookReason = StopHook, tr.StopReason
	case len(reply.ToolUses) == 0 && len(s.pendingUser) == 0:
		s.stopReason = reply.StopReason
		if s.stopReason == "" {
			s.stopReason = "end_turn"
		}
	case s.turns >= s.opts.MaxTurns:
		s.stopReason = StopMaxTurns
	case s.opts.MaxBudgetUSD > 0 && s.cost >= s.opts.MaxBudgetUSD:
		s.stopReason = StopMaxBudget
	}
}

// open reads the session's store: a session id already used resumes its conversation
// and reconstructs its budget state; a fork starts from its parent's.
func (s *session) open(ctx workflow.Context) error {
	var reply conversation.OpenReply
	err := workflow.ExecuteActivity(s.storeCtx(ctx, "Open session "+s.in.SessionID), s.names.of(contract.OpenSessionActivityName),
		conversation.OpenRequest{SessionID: s.in.SessionID, Inherited: s.in.Inherited}).Get(ctx, &reply)
	if err != nil {
		return err
	}
	s.resultsDir, s.latest = reply.ResultsDir, reply.Workspace
	// A new conversation numbers its turns from 1 (session_turn.go); a found head
	// says how its turns were named.
	s.head = conversation.Head{Next: 1, TurnsNumbered: true}
	s.state = budget.NewState()
	switch {
	case reply.Found:
		s.head, s.state, s.found = reply.Head, reply.State, true
	case s.in.Fork != nil:
		s.head.Conversation, s.head.Forked = s.in.Fork.Conversation, true
		s.state = s.in.Fork.State.Clone()
	}
	return nil
}

// storeCtx runs the store activities: quick, and retried until they succeed.
func (s *session) storeCtx(ctx workflow.Context, summary string) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		Summary:             summary,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 30 * time.Second},
	})
}

// shouldContinueAsNew: Temporal suggests it (history size or length), or the
// configured number of model calls per run was reached.
func (s *session) shouldContinueAsNew(ctx workflow.Context) bool {
	if workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
		return true
	}
	return s.opts.ContinueAsNewEvery > 0 && s.callsThisRun >= s.opts.ContinueAsNewEvery
}

// carriedEvents is how many recent events continue-as-new carries, so that a watcher
// misses none around the switch without the carry growing with the session.
const carriedEvents = 100

func (s *session) carryInput() SessionInput {
	in := s.in
	in.Prompt, in.Fork, in.Inherited = "", nil, nil
	events, base := s.events, s.eventBase
	if drop := len(events) - carriedEvents; drop > 0 {
		events, base = events[drop:], base+drop
	}
	in.Carry = &SessionCarry{
		State: s.state, Head: s.head, ResultsDir: s.resultsDir, PendingUser: s.pendingUser,
		Turns: s.turns, Usage: s.usage, Context: s.context, Runs: s.runs + 1,
		Events: events, EventBase: base, ModelStop: s.modelStop, LastResults: s.lastResults,
		LastError: s.lastError, LastUsage: s.lastUsage, Cost: s.cost,
		CtxBytes: s.ctxBytes, Compactions: s.compactions, PromptSeq: s.promptSeq,
		EndedTasks: s.endedTasks(), // session_background.go
		Wakeup:     s.wakeup, NoopStreak: s.noopStreak,
		Tools:       s.carryTools(), // session_tools.go
		Checkpoints: s.checkpoints,  // session_checkpoint.go
		MarkBefore:  s.markBefore, MarkPrompt: s.markPrompt,
	}
	return in
}

func (s *session) restore(c *SessionCarry) {
	s.state, s.head, s.resultsDir, s.pendingUser = c.State, c.Head, c.ResultsDir, c.PendingUser
	if s.state == nil {
		s.state = budget.NewState()
	}
	s.turns, s.usage, s.context, s.runs = c.Turns, c.Usage, c.Context, c.Runs
	s.events, s.eventBase = c.Events, c.EventBase
	s.modelStop, s.lastResults, s.lastError = c.ModelStop, c.LastResults, c.LastError
	s.lastUsage, s.cost = c.LastUsage, c.Cost
	s.ctxBytes, s.compactions = c.CtxBytes, c.Compactions
	s.promptSeq = c.PromptSeq
	s.found, s.markBefore, s.markPrompt = true, c.MarkBefore, c.MarkPrompt
	s.restoreTasks(c.EndedTasks) // session_background.go
	s.wakeup, s.noopStreak = c.Wakeup, c.NoopStreak
	s.restoreTools(c.Tools) // session_tools.go
	s.checkpoints = c.Checkpoints
}

// addUser queues a user message for the next model call.
func (s *session) addUser(text string) {
	s.pendingUser = append(s.pendingUser, conversation.UserText(text))
	s.note(SessionEvent{Kind: EventUser, Text: text})
}
