package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
)

// ScheduleWakeupName is Claude Code's tool by which the model paces a loop of its
// own: the session sleeps, then wakes with a prompt.
const ScheduleWakeupName = "ScheduleWakeup"

// The bounds Claude Code clamps a wake-up's delay to, in seconds.
const (
	WakeupMinSeconds = 60
	WakeupMaxSeconds = 3600
)

// ScheduleWakeupInput is Claude Code's ScheduleWakeupInput (sdk-tools.d.ts).
type ScheduleWakeupInput struct {
	DelaySeconds *float64 `json:"delaySeconds,omitempty"`
	Reason       *string  `json:"reason,omitempty"`
	Prompt       *string  `json:"prompt,omitempty"`
	Stop         bool     `json:"stop,omitempty"`
	Noop         bool     `json:"noop,omitempty"`
}

// ScheduleWakeupOutput is Claude Code's ScheduleWakeupOutput: the tool_response
// PostToolUse hooks read.
type ScheduleWakeupOutput struct {
	ScheduledFor        int64 `json:"scheduledFor"`
	ClampedDelaySeconds int   `json:"clampedDelaySeconds"`
	WasClamped          bool  `json:"wasClamped"`
	Stopped             bool  `json:"stopped,omitempty"`
	CancelledWakeups    *int  `json:"cancelledWakeups,omitempty"`
}

// Clamped is the delay a wake-up waits: delaySeconds rounded to a whole second
// and held inside [WakeupMinSeconds, WakeupMaxSeconds], and whether it had to be.
func (in ScheduleWakeupInput) Clamped() (seconds int, clamped bool) {
	return in.ClampedFrom(WakeupMinSeconds)
}

// ClampedFrom is Clamped with another lower bound (a session's
// SessionOptions.WakeupMinSeconds), itself held inside [1, WakeupMaxSeconds].
func (in ScheduleWakeupInput) ClampedFrom(minSeconds int) (seconds int, clamped bool) {
	minSeconds = max(1, min(minSeconds, WakeupMaxSeconds))
	if in.DelaySeconds == nil {
		return minSeconds, true
	}
	d := math.Round(*in.DelaySeconds)
	switch {
	case math.IsNaN(d) || d < float64(minSeconds):
		return minSeconds, true
	case d > WakeupMaxSeconds:
		return WakeupMaxSeconds, true
	}
	return int(d), false
}

// Delay is Clamped as a duration.
func (in ScheduleWakeupInput) Delay() time.Duration {
	s, _ := in.Clamped()
	return time.Duration(s) * time.Second
}

// ScheduleWakeup sleeps the session durably and wakes it with a prompt. It has no
// activity: the turn hands its calls to its session, which arms a workflow timer
// (workflows/session_schedulewakeup.go), so a session that sleeps holds no worker
// slot and outlives every process. It changes nothing but its own session, so it
// needs no permission (rules naming it still apply, as in Claude Code) and runs
// beside other safe calls; it answers at once, so an interrupt has nothing to stop.
type ScheduleWakeup struct{ Base }

// Spec of ScheduleWakeup.
func (ScheduleWakeup) Spec() Spec {
	return Spec{Name: ScheduleWakeupName, Builtin: true, Coerce: true, InSession: true, MaxInputBytes: 1 << 20,
		Interrupt: InterruptCancel, MaxResultSizeChars: 1000,
		Description: scheduleWakeupDescription, InputSchema: scheduleWakeupSchema}
}

const scheduleWakeupDescription = `Sleeps this session and wakes it later with a prompt: the way to pace a loop of your own (check something, wait, check again) without a person prompting each round.

- delaySeconds is how long to sleep; it is clamped to 60-3600 seconds. Match it to what you wait for: how fast an external state (a CI run, a deploy, a queue) really changes; for idle checks with nothing specific to watch, 1200-1800 seconds. Do not poll for background tasks you started: their end wakes you by itself.
- prompt is the message you are woken with; pass the same loop instructions each round so the next round continues the loop.
- reason is one short sentence saying why this delay; people watching the session see it.
- noop: true when this round found nothing worth reporting (quiet rounds are shown collapsed), false when something happened.
- stop: true ends the loop: the pending wake-up is cancelled and nothing more is scheduled; the other fields are then ignored.
- One wake-up is pending at a time: a new call replaces the pending one. After the call, end your turn: the session sleeps until the wake-up (a message from the user or a background task's end wakes it sooner).
- The sleep is durable: it survives worker and server restarts and costs nothing while it waits.`

const scheduleWakeupSchema = `{
  "type": "object",
  "properties": {
    "delaySeconds": {"type": "number", "description": "Seconds from now to wake up. Clamped to [60, 3600]. Required unless stop is true."},
    "reason": {"type": "string", "description": "One short sentence explaining the chosen delay; shown to the user. Required unless stop is true."},
    "prompt": {"type": "string", "description": "The prompt to wake up with. Pass the same loop input each round. Required unless stop is true."},
    "stop": {"type": "boolean", "description": "Set to true to end the loop now instead of scheduling another wake-up; the other fields are then ignored."},
    "noop": {"type": "boolean", "description": "true = nothing changed this round; false = something happened worth keeping. Consecutive noop rounds are shown collapsed. Required unless stop is true."}
  },
  "additionalProperties": false
}`

func wakeupInput(input json.RawMessage) ScheduleWakeupInput {
	var in ScheduleWakeupInput
	_ = json.Unmarshal(input, &in) // validated before; a bad input still gets a name
	return in
}

// IsConcurrencySafe: always; it only changes its session's own state.
func (ScheduleWakeup) IsConcurrencySafe(json.RawMessage) bool { return true }

// CheckInput refuses what Claude Code refuses, in its words: a wake-up without a
// delay, a reason or a prompt.
func (ScheduleWakeup) CheckInput(input json.RawMessage) error {
	in := wakeupInput(input)
	switch {
	case in.Stop:
		return nil
	case in.DelaySeconds == nil || in.Reason == nil:
		return errors.New("`delaySeconds` and `reason` are required when `stop` is not true.")
	case in.Prompt == nil:
		return errors.New("`prompt` is required when `stop` is not true.")
	}
	return nil
}

// Subject: the reason, else the prompt.
func (ScheduleWakeup) Subject(input json.RawMessage) string {
	in := wakeupInput(input)
	switch {
	case in.Stop:
		return "stop"
	case in.Reason != nil && *in.Reason != "":
		return *in.Reason
	case in.Prompt != nil:
		return *in.Prompt
	}
	return ""
}

// Summary: the delay and the reason, or that the loop stops.
func (t ScheduleWakeup) Summary(input json.RawMessage) string {
	in := wakeupInput(input)
	if in.Stop {
		return Title(ScheduleWakeupName, "stop the loop")
	}
	s, _ := in.Clamped()
	return Title(ScheduleWakeupName, fmt.Sprintf("in %ds:", s), Code(t.Subject(input), false))
}

// Access: the session's own state; allowed unless a rule names the tool.
func (ScheduleWakeup) Access(json.RawMessage) Access {
	return Access{Kind: AccessSession, ReadOnly: true}
}

// Run is never called: the session arms the wake-up.
func (ScheduleWakeup) Run(context.Context, Call) (Output, error) {
	return Output{}, fmt.Errorf("%s is answered by the session, not by an activity", ScheduleWakeupName)
}

// WakeupScheduled is the result of a wake-up armed for at (shown in UTC: workflow
// code must not read a worker's time zone) after seconds, as Claude Code words it.
func WakeupScheduled(at time.Time, seconds int, clamped bool) string {
	c := ""
	if clamped {
		c = fmt.Sprintf(" (clamped to %ds from your requested value)", seconds)
	}
	return fmt.Sprintf("Next wakeup scheduled for %s UTC (in %ds)%s. If you owe the user a status update this tick, "+
		"write it now as ordinary response text; then end the turn \u2014 the harness re-invokes you when the wakeup fires or a task-notification arrives.",
		at.UTC().Format("15:04:05"), seconds, c)
}

// WakeupStopped is the result of stop: true, as Claude Code words it; cancelled
// says whether a wake-up was pending.
func WakeupStopped(cancelled int) string {
	then := "Then end the turn."
	if cancelled == 0 {
		return "Loop stopped \u2014 any dynamic loop in this session is ended; there was no pending wakeup to cancel. " +
			"If you are running a recurring cron prompt (CronCreate), it is NOT stopped by this call \u2014 cancel it with CronDelete. " + then
	}
	return fmt.Sprintf("Loop stopped \u2014 cancelled %d pending wakeup(s); no further dynamic-loop wakeups scheduled. %s", cancelled, then)
}
