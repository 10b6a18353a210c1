package workflows

import (
	"encoding/json"
	"fmt"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/tool"
)

// Wakeup is a session's pending wake-up (ScheduleWakeup): when it fires, Prompt
// is the user message the session wakes with. One is pending at a time; a new
// call replaces it and stop: true cancels it.
type Wakeup struct {
	At        time.Time `json:"at"`
	Seconds   int       `json:"seconds"`
	Prompt    string    `json:"prompt"`
	Reason    string    `json:"reason,omitempty"`
	ToolUseID string    `json:"tool_use_id"`
	// Noop: the round that armed it found nothing to report; NoopStreak counts the
	// quiet rounds in a row up to it (starter agent shows them collapsed).
	Noop       bool `json:"noop,omitempty"`
	NoopStreak int  `json:"noop_streak,omitempty"`
}

// scheduleWakeup answers a ScheduleWakeup call: it arms (or replaces) the
// session's wake-up, or cancels it with stop: true. The timer itself is armed
// when the model has ended its turn (sleepUntilWakeup): until then the session
// is busy anyway.
func (s *session) scheduleWakeup(ctx workflow.Context, ask BackgroundAsk) BackgroundReply {
	workflow.GetVersion(ctx, scheduledWakeups, workflow.DefaultVersion, 1) // marks histories that sleep
	var in tool.ScheduleWakeupInput
	_ = json.Unmarshal(ask.Call.Input, &in) // validated by the turn
	if in.Stop {
		cancelled := 0
		if s.wakeup != nil {
			cancelled = 1
			s.note(SessionEvent{Kind: EventNotice, Text: "pending wake-up cancelled: the loop was stopped"})
		}
		s.wakeup, s.noopStreak = nil, 0
		s.publish(ctx)
		resp, _ := json.Marshal(tool.ScheduleWakeupOutput{Stopped: true, CancelledWakeups: &cancelled})
		return BackgroundReply{Content: tool.WakeupStopped(cancelled), Response: resp}
	}
	if s.done {
		return BackgroundReply{Content: "Error: the session is ending; no wake-up was scheduled.", IsError: true}
	}
	secs, clamped := in.ClampedFrom(s.opts.WakeupMinSeconds)
	at := workflow.Now(ctx).Add(time.Duration(secs) * time.Second)
	w := &Wakeup{At: at, Seconds: secs, ToolUseID: ask.ToolUseID, Noop: in.Noop}
	if in.Prompt != nil {
		w.Prompt = *in.Prompt
	}
	if in.Reason != nil {
		w.Reason = *in.Reason
	}
	if in.Noop {
		s.noopStreak++
	} else {
		s.noopStreak = 0
	}
	w.NoopStreak = s.noopStreak
	s.wakeup = w
	s.publish(ctx)
	resp, _ := json.Marshal(tool.ScheduleWakeupOutput{ScheduledFor: at.UnixMilli(), ClampedDelaySeconds: secs, WasClamped: clamped})
	return BackgroundReply{Content: tool.WakeupScheduled(at, secs, clamped), Response: resp}
}

// sleepUntilWakeup: the model ended its turn with a wake-up pending. The session
// does not end: it sleeps on a workflow timer (no activity, so no worker slot;
// the timer is the server's and survives every restart), visible as
// PhaseSleeping and ToolpipeStatus=sleeping, and wakes with the prompt. A user's
// message or a background task's end wakes the model sooner; the wake-up stays
// pending. Stops that are not the model's own end the session as before.
func (s *session) sleepUntilWakeup(ctx workflow.Context) error {
	switch s.stopReason {
	case "", StopHook, StopMaxTurns, StopMaxBudget, StopModelError:
		return nil
	}
	if s.wakeup == nil || len(s.pendingUser) > 0 {
		return nil
	}
	w, reason := s.wakeup, s.stopReason
	s.stopReason, s.phase = "", PhaseSleeping
	s.note(SessionEvent{Kind: EventWakeup, Text: fmt.Sprintf("sleeping %ds, until %s UTC: %s", w.Seconds, w.At.UTC().Format("15:04:05"), w.Reason),
		Noop: w.Noop, ToolUseID: w.ToolUseID})
	s.publish(ctx)
	wait := w.At.Sub(workflow.Now(ctx))
	// A task's end queues its notification, so pendingUser covers it too.
	woken := func() bool { return len(s.pendingUser) > 0 || s.wakeup != w }
	ended := true // the wait ended by the timer
	if wait > 0 {
		ok, err := workflow.AwaitWithTimeout(ctx, wait, woken)
		if err != nil {
			return err
		}
		ended = !ok
	}
	s.phase = PhaseIdle
	if ended && s.wakeup == w {
		s.wakeup = nil
		s.userPrompt(w.Prompt) // session_prompt_id.go: a new prompt, as Claude Code fires it
	}
	if len(s.pendingUser) == 0 {
		s.stopReason = reason
	}
	return nil
}

// wakeupState is the pending wake-up for the state query.
func (s *session) wakeupState() *Wakeup {
	if s.wakeup == nil {
		return nil
	}
	w := *s.wakeup
	return &w
}

// StatusSleeping is ToolpipeStatus of a session asleep until a ScheduleWakeup
// fires: ToolpipeStatus = "sleeping" finds every such session.
const StatusSleeping = "sleeping"
