package workflows

import (
	"fmt"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/tool"
)

// turnSlot is the Turn a model call may start (change turnOnToolUse, changes.go): its number and id, and the context
// its child workflow starts in (cancelled with the call).
type turnSlot struct {
	no  int
	id  string
	ctx workflow.Context
	// lazy: started by openTurn when the first block comes; else before the call.
	lazy bool
}

// reserveTurn names the Turn of model call seq. The number is taken only when the
// Turn starts (openTurn), so a reply without tool calls leaves no gap.
func (s *session) reserveTurn(ctx workflow.Context, seq int, cancelable workflow.Context) turnSlot {
	slot := turnSlot{no: seq, lazy: workflow.GetVersion(ctx, turnOnToolUse, workflow.DefaultVersion, 1) >= 1}
	summary := fmt.Sprintf("Turn %d of session %s", s.turns+1, s.in.SessionID) // as before the change
	if slot.lazy {
		slot.no = s.nextTurnNumber()
		summary = fmt.Sprintf("Turn %d of session %s", slot.no, s.in.SessionID)
	}
	slot.id = fmt.Sprintf("%s/turn-%d", workflow.GetInfo(ctx).WorkflowExecution.ID, slot.no)
	slot.ctx = workflow.WithChildOptions(cancelable, workflow.ChildWorkflowOptions{
		WorkflowID:          slot.id,
		WaitForCancellation: true,
		StaticSummary:       summary,
	})
	return slot
}

// nextTurnNumber is the number the next Turn gets. A session whose turns were named
// after their messages until now (a head from before turnOnToolUse) numbers on from
// its next message's number, past every id it used.
func (s *session) nextTurnNumber() int {
	if !s.head.TurnsNumbered {
		s.head.LastTurn, s.head.TurnsNumbered = max(s.head.LastTurn, s.head.Next), true
	}
	return s.head.LastTurn + 1
}

// openTurn starts the reserved Turn, once, and waits until it runs: the model
// activity hands it blocks right after.
func (s *session) openTurn(ctx workflow.Context) error {
	s.awaitCheckpoint(ctx) // session_checkpoint.go: tools wait for a running capture
	if s.turn == nil {
		s.turn = workflow.ExecuteChildWorkflow(s.slot.ctx, s.names.of(contract.TurnWorkflowName), TurnInput{
			SessionID: s.in.SessionID, Workdir: s.in.Workdir, Context: s.context, Options: s.opts.Turn,
			Settings: s.turnSettings(), MCPTools: s.mcpTools, SearchAttributes: s.in.SearchAttributes,
			FailedCallsAttribute: s.in.FailedCallsAttribute,
			PromptID:             s.promptID(ctx), // session_prompt_id.go
			ToolQueue:            s.toolQueue(),   // fleet.go
			Generation:           s.generation(),  // host_loss.go
		})
		// The turn's events carry its id from now on: a watcher follows its tools.
		s.note(SessionEvent{Kind: EventTurn, Text: s.slot.id})
		s.markTurn = s.slot.no // the history's turn number (session_rewind.go)
		if s.slot.lazy {
			s.head.LastTurn = s.slot.no
			s.publish(ctx)
		}
	}
	return s.turn.GetChildWorkflowExecution().Get(ctx, nil)
}

// validOpenTurn accepts the reserved Turn of the model call now streaming.
func (s *session) validOpenTurn(req OpenTurnRequest) error {
	if s.phase != PhaseModel || !s.slot.lazy || req.TurnID != s.slot.id {
		return fmt.Errorf("turn %q is not the turn of a streaming model call in this session (now %q, phase %s)", req.TurnID, s.slot.id, s.phase)
	}
	return nil
}

// turnCalls says a reply has a tool call for a Turn (Task calls are sub-agents the
// session runs itself).
func turnCalls(uses []conversation.ToolUse) bool {
	for _, tu := range uses {
		if tu.Name != tool.TaskName {
			return true
		}
	}
	return false
}
