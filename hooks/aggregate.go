package hooks

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Timing thresholds of a hook phase (Claude Code's): over DisplayThreshold the turn
// shows a summary to the user; at or over LogThreshold the phase is logged as slow.
const (
	DisplayThreshold = 500 * time.Millisecond
	LogThreshold     = 2000 * time.Millisecond
)

// Result is what the hooks of one phase (one event for one tool call) say together.
type Result struct {
	Event    Event
	Outcomes []Outcome
	// Decision is the strongest permission decision: deny > ask > allow.
	Decision Decision
	// Reason joins the reasons of the hooks that made the winning decision.
	Reason string
	// HookError: the first hook that made the winning decision did so with a
	// blocking error (DenyText).
	HookError bool
	// UpdatedInput is the last replacement input in settings order, from a hook
	// that did not deny.
	UpdatedInput json.RawMessage
	// Context holds every additionalContext, in settings order.
	Context []string
	// Feedback holds the blocking reasons of PostToolUse hooks (decision block or
	// exit 2), which go to the model.
	Feedback []string
	// Blocking are the same, naming their hook as Claude Code does for the model:
	// `from command: "CMD": REASON` (an exit 2's REASON is "[CMD]: stderr").
	Blocking []string
	// UpdatedMCPToolOutput is the last replacement output, in settings order.
	UpdatedMCPToolOutput json.RawMessage
	// Stop is set when any hook returned continue: false.
	Stop       bool
	StopReason string
	// Messages are for the user: system messages and non-blocking errors.
	Messages []string
	// Duration is how long the phase took: its hooks run in parallel, so the
	// slowest one's time.
	Duration time.Duration
}

// Aggregate combines the outcomes of the hooks of one phase, given in settings order.
// Several hooks may decide: deny wins over ask, ask over allow, and the reasons of
// the hooks that chose the winning decision are joined. Aggregate is pure.
func Aggregate(e Event, outs []Outcome) Result {
	res := Result{Event: e, Outcomes: outs}
	var reasons []string
	var stopReasons []string
	for _, o := range outs {
		res.Duration = max(res.Duration, o.Duration)
		if o.Decision.rank() > res.Decision.rank() {
			res.Decision, reasons, res.HookError = o.Decision, nil, o.HookError
		}
		if o.Decision != "" && o.Decision == res.Decision && o.Reason != "" {
			reasons = append(reasons, o.Reason)
		}
		if o.Decision != Deny && len(o.UpdatedInput) > 0 {
			res.UpdatedInput = o.UpdatedInput
		}
		if o.AdditionalContext != "" {
			res.Context = append(res.Context, o.AdditionalContext)
		}
		if o.Block {
			res.Feedback = append(res.Feedback, o.BlockReason)
			// Quotes as they are, as Claude Code writes them. An exit 2's reason
			// already names its command (Parse), a prompt hook's its prompt.
			res.Blocking = append(res.Blocking, fmt.Sprintf(`from command: "%s": %s`, o.Command, o.BlockReason))
		}
		if len(o.UpdatedMCPToolOutput) > 0 {
			res.UpdatedMCPToolOutput = o.UpdatedMCPToolOutput
		}
		if o.Stop {
			res.Stop = true
			if o.StopReason != "" {
				stopReasons = append(stopReasons, o.StopReason)
			}
		}
		if o.SystemMessage != "" {
			res.Messages = append(res.Messages, o.SystemMessage)
		}
		if o.Status == NonBlocking {
			res.Messages = append(res.Messages, fmt.Sprintf("%s hook `%s` %s", e, shortCommand(o.Command), o.Error))
		}
	}
	res.Reason = strings.Join(reasons, "\n")
	res.StopReason = strings.Join(stopReasons, "\n")
	return res
}

// Summary is the user-visible line for a phase over DisplayThreshold: how long it
// took and each hook's share.
func (r Result) Summary(toolName string) string {
	parts := make([]string, len(r.Outcomes))
	for i, o := range r.Outcomes {
		parts[i] = fmt.Sprintf("`%s` %s", shortCommand(o.Command), o.Duration.Round(time.Millisecond))
	}
	return fmt.Sprintf("%s hooks for %s took %s: %s", r.Event, toolName, r.Duration.Round(time.Millisecond), strings.Join(parts, ", "))
}

// shortCommand keeps a command readable in one line of a message.
func shortCommand(c string) string {
	c = strings.Join(strings.Fields(c), " ")
	if r := []rune(c); len(r) > 80 {
		c = string(r[:80]) + "…"
	}
	return c
}
