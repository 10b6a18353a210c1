package workflows

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/workflow"
)

// maxEvents bounds the events a session keeps for watchers; older ones are dropped
// (the conversation itself is in the store).
const maxEvents = 1000

// maxEventText bounds the text of one event.
const maxEventText = 2000

// register installs the session's update, signal and queries.
func (s *session) register(ctx workflow.Context) error {
	if err := workflow.SetUpdateHandlerWithOptions(ctx, contract.SendUpdate,
		func(ctx workflow.Context, req SendRequest) (SendResponse, error) {
			s.userPrompt(req.Text) // session_prompt_id.go
			s.publish(ctx)
			s.interruptTurn(ctx, InterruptRequest{})
			return SendResponse{Queued: len(s.pendingUser)}, nil
		},
		workflow.UpdateHandlerOptions{
			Validator: func(ctx workflow.Context, req SendRequest) error {
				if strings.TrimSpace(req.Text) == "" {
					return errors.New("the message is empty")
				}
				if s.stopReason != "" {
					return fmt.Errorf("the session has ended (%s): start it again with the same session id to continue", s.stopReason)
				}
				return nil
			},
			Description: "A new user message: interrupts the running turn and is sent with the next model call.",
		}); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, contract.StartTaskUpdate,
		func(ctx workflow.Context, req StartTaskRequest) error {
			s.awaitCheckpoint(ctx) // session_checkpoint.go: the sub-agent's tools wait for a capture
			s.takeTask(req)
			return nil
		},
		workflow.UpdateHandlerOptions{
			Validator:   func(ctx workflow.Context, req StartTaskRequest) error { return s.validTask(req) },
			Description: "A Task block that has just streamed: its sub-agent starts before the model's message ends (sent by the model activity).",
		}); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, contract.OpenTurnUpdate,
		func(ctx workflow.Context, req OpenTurnRequest) error { return s.openTurn(ctx) }, // session_turn.go
		workflow.UpdateHandlerOptions{
			Validator:   func(ctx workflow.Context, req OpenTurnRequest) error { return s.validOpenTurn(req) },
			Description: "Start the Turn of the model call now streaming, before its first tool_use block is handed over (sent by the model activity).",
		}); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, contract.CompactUpdate,
		func(ctx workflow.Context, req CompactRequestArgs) error {
			s.manualCompact = &req.Instructions
			return nil
		},
		workflow.UpdateHandlerOptions{
			Validator: func(ctx workflow.Context, req CompactRequestArgs) error {
				if s.stopReason != "" {
					return fmt.Errorf("the session has ended (%s): it compacts by itself when a later prompt nears the window", s.stopReason)
				}
				return nil
			},
			Description: "Compact the conversation into a summary before the next model call (instructions are added to the summary prompt).",
		}); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	if err := s.registerAnswer(ctx); err != nil { // session_askuserquestion.go
		return fmt.Errorf("session: %w", err)
	}
	workflow.Go(ctx, func(ctx workflow.Context) {
		ch := workflow.GetSignalChannelWithOptions(ctx, contract.SessionInterruptSignal,
			workflow.SignalChannelOptions{Description: "Interrupt the running turn: tools whose interrupt behaviour is cancel stop."})
		for {
			ch.Receive(ctx, nil)
			s.interruptTurn(ctx, InterruptRequest{NoMessage: true}) // no message came with it
		}
	})
	if err := s.registerControl(ctx); err != nil { // session_control.go
		return err
	}
	if err := s.registerRewind(ctx); err != nil { // session_rewind.go
		return err
	}
	if err := workflow.SetQueryHandlerWithOptions(ctx, contract.SessionStateQuery, s.stateQuery,
		workflow.QueryHandlerOptions{Description: "Where the session stands: phase, turns, conversation size, budget."}); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	if err := workflow.SetQueryHandlerWithOptions(ctx, contract.EventsQuery, s.eventsQuery,
		workflow.QueryHandlerOptions{Description: "What happened since a cursor: messages, tool calls, results."}); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	return nil
}

// interruptTurn passes an interrupt on to the running turn (DESIGN §3.7).
func (s *session) interruptTurn(ctx workflow.Context, req InterruptRequest) {
	if s.turn == nil {
		return
	}
	// A turn that has just finished cannot be signalled; nothing is left to stop.
	_ = s.turn.SignalChildWorkflow(ctx, contract.InterruptSignal, req).Get(ctx, nil)
}

func (s *session) stateQuery() (SessionState, error) {
	st := SessionState{
		SessionID: s.in.SessionID, Phase: s.phase, Turns: s.turns,
		Messages: s.head.Conversation.Len(), Bytes: s.head.Conversation.Bytes(), PendingUser: len(s.pendingUser),
		Runs: s.runs, Usage: s.usage, StopReason: s.stopReason, LastError: s.lastError,
		LastUsage: s.lastUsage, Cost: s.cost, Model: s.model.Model, ContextWindow: s.model.ContextWindow,
		Compactions: s.compactions, BackgroundTasks: s.taskList(), Placement: s.in.Placement,
		Wakeup: s.wakeupState(), Questions: s.questions.state(),
		Tasks: s.sessionTaskItems(), PlanMode: s.inPlanMode(), // session_tools.go
		Checkpoints: s.checkpoints, History: s.historyLines,
	}
	if s.state != nil {
		st.Seen, st.Replaced = len(s.state.SeenIDs), len(s.state.Replacements)
	}
	if s.turn != nil { // a model call's reserved Turn is not running until it starts
		st.TurnID, st.TurnNumber = s.turnID, s.slot.no
	}
	if s.head.TurnsNumbered {
		st.LastTurn = s.head.LastTurn
	}
	return st, nil
}

func (s *session) eventsQuery(from int) (EventsResponse, error) {
	i := max(from-s.eventBase, 0)
	if i > len(s.events) {
		i = len(s.events)
	}
	return EventsResponse{Events: s.events[i:], Next: s.eventBase + len(s.events), Done: s.done}, nil
}

// note records an event for watchers.
func (s *session) note(ev SessionEvent) {
	ev.Turn = s.turns
	if s.turn != nil { // a model call's Turn, once it has started
		ev.TurnID = s.turnID
	}
	if len(ev.Text) > maxEventText {
		cut := maxEventText
		for cut > 0 && !utf8.RuneStart(ev.Text[cut]) {
			cut--
		}
		ev.Text = ev.Text[:cut] + "…"
	}
	s.events = append(s.events, ev)
	if drop := len(s.events) - maxEvents; drop > 0 {
		s.events = append([]SessionEvent(nil), s.events[drop:]...)
		s.eventBase += drop
	}
}
