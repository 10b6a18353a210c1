package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/tool"
)

// modelTimeout bounds one streaming model call.
const modelTimeout = 10 * time.Minute

// step makes one model call and runs the turn of its tool calls. The model activity
// hands the Turn each tool_use block as soon as the block has streamed, so tools run
// while the model is still writing; it has the session start the Turn just before
// the first (session_turn.go), so a reply without tool calls starts none. (Sessions
// from before turnOnToolUse started it before every call.)
func (s *session) step(ctx workflow.Context) (conversation.ModelReply, TurnResult, error) {
	seq := s.head.Next
	s.head.Next++
	s.callsThisRun++
	cancelable, cancelTurn := workflow.WithCancel(ctx)
	s.slot = s.reserveTurn(ctx, seq, cancelable) // session_turn.go
	s.turnID = s.slot.id
	defer func() {
		s.turn, s.turnID, s.slot, s.phase = nil, "", turnSlot{}, PhaseIdle
		s.publish(ctx)
	}()
	if !s.slot.lazy {
		if err := s.openTurn(ctx); err != nil {
			return conversation.ModelReply{}, TurnResult{}, err
		}
	}
	prefix := s.head.Conversation      // what the model is sent; a fork starts from it
	s.markSent, s.markTurn = prefix, 0 // session_rewind.go
	s.tasks, s.taskCtx, s.taskPrefix = map[string]workflow.Future{}, ctx, prefix
	defer func() { s.tasks, s.taskCtx, s.taskPrefix = nil, nil, nil }()
	// Histories from before tasksAsStreamed started every Task once the message had
	// ended; they replay without the StartTask updates, as they ran.
	taskIntake := workflow.GetVersion(ctx, tasksAsStreamed, workflow.DefaultVersion, 1) >= 1
	s.phase = PhaseModel
	s.note(SessionEvent{Kind: EventModel, Text: s.model.Model})
	s.publish(ctx)
	var reply conversation.ModelReply
	mreq := s.modelRequest(seq, prefix)
	mreq.TurnID, mreq.TaskIntake = s.turnID, taskIntake
	if s.slot.lazy {
		mreq.OpenTurn, mreq.Turn = true, s.slot.no
	}
	s.ctxBytes = prefix.Bytes()
	err := workflow.ExecuteActivity(s.modelCtx(ctx), s.names.of(contract.ModelActivityName), mreq).Get(ctx, &reply)
	if err != nil {
		cancelTurn()
		if s.turn != nil {
			_ = s.turn.Get(ctx, nil) // its tools stop before the session reports the failure
		}
		return reply, TurnResult{}, modelFailure{err} // as it is: its error type tells why
	}
	s.head.Conversation = s.head.Conversation.Append(s.in.SessionID, seq, 1, reply.Size)
	s.account(reply.Usage, true)
	s.triedCompact = false
	s.lastText = reply.Text
	if reply.Text != "" {
		s.note(SessionEvent{Kind: EventAssistant, Text: reply.Text})
	}
	for _, tu := range reply.ToolUses {
		s.toolNames[tu.ID] = tu.Name
		s.note(SessionEvent{Kind: EventToolUse, ToolUseID: tu.ID, Text: tu.Summary})
		if _, started := s.tasks[tu.ID]; tu.Name == tool.TaskName && !started {
			s.awaitCheckpoint(ctx) // session_checkpoint.go
			s.tasks[tu.ID] = s.startTask(ctx, tu, prefix)
		}
	}
	if s.turn == nil {
		if turnCalls(reply.ToolUses) { // the activity opens the turn before it hands a block over
			return reply, TurnResult{}, fmt.Errorf("session: the model call of %s had tool calls but never opened its turn", s.turnID)
		}
		// Text only, or sub-agents only: no Turn, and the context is as it was.
		s.pendingResults = s.collect(ctx, reply.ToolUses, nil, s.tasks)
		s.checkpointAfter(ctx, s.head.LastTurn, seq, reply.ToolUses) // session_checkpoint.go
		return reply, TurnResult{Context: s.context}, nil
	}
	s.phase = PhaseTools
	s.publish(ctx)
	var tr TurnResult
	if err := s.turn.Get(ctx, &tr); err != nil {
		return reply, tr, err
	}
	s.context = tr.Context
	s.pendingResults = s.collect(ctx, reply.ToolUses, tr.Results, s.tasks)
	if moved, err := s.checkHost(ctx, tr.Results); err != nil { // host_loss.go
		return reply, tr, err
	} else if !moved {
		s.checkpointAfter(ctx, s.slot.no, seq, reply.ToolUses) // session_checkpoint.go
	}
	return reply, tr, nil
}

// collect puts the turn's and the sub-agents' results in the order of the tool_use
// blocks, as the next user message must answer them.
func (s *session) collect(ctx workflow.Context, uses []conversation.ToolUse, turn []tool.Result, tasks map[string]workflow.Future) []tool.Result {
	byID := make(map[string]tool.Result, len(turn))
	for _, r := range turn {
		byID[r.ToolUseID] = r
	}
	out := make([]tool.Result, 0, len(uses))
	for _, tu := range uses {
		if f, ok := tasks[tu.ID]; ok {
			var r tool.Result
			_ = f.Get(ctx, &r) // startTask's futures always settle with a result
			byID[tu.ID] = r
		}
		r, ok := byID[tu.ID]
		if !ok {
			r = tool.ErrorResult(tu.ID, "Error: the tool call produced no result")
		}
		out = append(out, r)
		s.note(SessionEvent{Kind: EventToolResult, ToolUseID: r.ToolUseID, Text: r.Content, IsError: r.IsError})
	}
	return out
}

// modelCtx: the model call streams, heartbeating; overload, rate limits and server
// errors are retried by Temporal, with the SDK's own retries off.
func (s *session) modelCtx(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: modelTimeout,
		HeartbeatTimeout:    s.opts.ModelHeartbeatTimeout,
		WaitForCancellation: true,
		Summary:             "Model: " + s.model.Model,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:        s.opts.ModelRetryInterval,
			BackoffCoefficient:     2,
			MaximumInterval:        time.Minute,
			MaximumAttempts:        s.opts.ModelAttempts,
			NonRetryableErrorTypes: []string{contract.ErrModelRejected, contract.ErrPromptTooLong, contract.ErrModelNotConfigured},
		},
	})
}

// account adds a model call's usage to the session's totals and its cost estimate;
// a call of the conversation (not a summary) also tells how full the context is.
func (s *session) account(u conversation.Usage, conversationCall bool) {
	s.usage = s.usage.Add(u)
	if conversationCall {
		s.lastUsage = u
	}
	s.cost += s.model.Price.Cost(u.InputTokens, u.OutputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens)
}

// modelRequest is the model call of message seq on the conversation prefix.
func (s *session) modelRequest(seq int, prefix conversation.Conversation) conversation.ModelRequest {
	return conversation.ModelRequest{
		SessionID: s.in.SessionID, Seq: seq, Conversation: prefix,
		Model: s.model.Model, MaxTokens: s.model.MaxTokens, System: s.systemPrompt(), // session_skills.go
		Task: s.in.Depth < s.opts.MaxDepth, Forked: s.head.Forked, MCPTools: s.mcpTools,
		Disabled: s.disabledTools(), LastTurn: s.head.LastTurn, TurnsNumbered: s.head.TurnsNumbered,
		Parent: s.head.Parent, ForkedAt: s.head.ForkedAt,
	}
}

// disabledTools are the offered tools a deny rule names whole, in offer order.
func (s *session) disabledTools() []string {
	if s.in.Settings == nil || s.in.Settings.Permissions == nil {
		return nil
	}
	pol := s.in.Settings.Permissions
	var out []string
	for _, t := range s.tools.APIToolsWithMCP(s.mcpTools) {
		if pol.Disables(t.Name) {
			out = append(out, t.Name)
		}
	}
	return out
}
