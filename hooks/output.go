package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Decision is a PreToolUse hook's permission decision; "" when it made none.
type Decision string

// The permission decisions of hookSpecificOutput.permissionDecision.
const (
	Allow Decision = "allow"
	Ask   Decision = "ask"
	Deny  Decision = "deny"
)

// rank orders decisions for aggregation: deny > ask > allow > none.
func (d Decision) rank() int {
	switch d {
	case Deny:
		return 3
	case Ask:
		return 2
	case Allow:
		return 1
	}
	return 0
}

// Status says how a hook ended, as Claude Code reads exit codes.
type Status string

const (
	// Success: exit 0; stdout was read as JSON or plain text.
	Success Status = "success"
	// Blocking: exit 2; stderr goes to the model (PreToolUse denies the call).
	Blocking Status = "blocking"
	// NonBlocking: any other exit code, a timeout, output that is not valid
	// JSON, or a hook that could not run; the user is told, the call proceeds.
	NonBlocking Status = "non_blocking_error"
)

// Outcome is what one hook run says.
type Outcome struct {
	Command  string
	Status   Status
	Duration time.Duration
	// Error describes a NonBlocking outcome for the user.
	Error string

	// Decision and Reason come from permissionDecision (or the legacy decision
	// field, or exit 2 in PreToolUse).
	Decision Decision
	Reason   string
	// UpdatedInput replaces the whole tool input (PreToolUse).
	UpdatedInput json.RawMessage
	// AdditionalContext reaches the model next to the result.
	AdditionalContext string
	// Block: PostToolUse decision "block" or exit 2; BlockReason goes to the model.
	Block       bool
	BlockReason string
	// UpdatedMCPToolOutput replaces an MCP tool's output (PostToolUse).
	UpdatedMCPToolOutput json.RawMessage
	// Stop is continue: false; StopReason tells the user why.
	Stop       bool
	StopReason string
	// SystemMessage is shown to the user.
	SystemMessage  string
	SuppressOutput bool
	// Text is stdout that is not JSON; Claude Code shows it in its transcript view
	// only, so it is kept for people and never sent to the model.
	Text string
	// HookError: the decision is a blocking error (a prompt hook's ok: false), which
	// Claude Code reports as "<event>:<tool> hook error: …".
	HookError bool
}

// wireOutput is the JSON a hook may print on stdout with exit 0.
type wireOutput struct {
	Continue           *bool            `json:"continue"`
	StopReason         string           `json:"stopReason"`
	SuppressOutput     bool             `json:"suppressOutput"`
	SystemMessage      string           `json:"systemMessage"`
	Decision           string           `json:"decision"`
	Reason             string           `json:"reason"`
	HookSpecificOutput *wireSpecificOut `json:"hookSpecificOutput"`
}

type wireSpecificOut struct {
	HookEventName            string          `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision"`
	PermissionDecisionReason string          `json:"permissionDecisionReason"`
	UpdatedInput             json.RawMessage `json:"updatedInput"`
	AdditionalContext        string          `json:"additionalContext"`
	UpdatedMCPToolOutput     json.RawMessage `json:"updatedMCPToolOutput"`
	// Decision is a PermissionRequest hook's answer to the ask.
	Decision *wirePermissionDecision `json:"decision"`
}

// wirePermissionDecision is hookSpecificOutput.decision of a PermissionRequest hook.
type wirePermissionDecision struct {
	Behavior     string          `json:"behavior"`
	Message      string          `json:"message"`
	UpdatedInput json.RawMessage `json:"updatedInput"`
}

// Parse reads a hook run as Claude Code does: exit 0 parses stdout as JSON when it
// starts with '{' (after white space) and keeps it as plain text otherwise; exit 2 is
// blocking with stderr as the reason; any other exit code, a timeout or a hook that
// could not start is a non-blocking error. JSON that does not parse or has fields of
// the wrong type is a non-blocking error too: the call proceeds and the user is told.
// Unknown fields are ignored. Parse is pure and never panics.
func Parse(e Event, r Run) Outcome {
	o := Outcome{Command: r.Command, Duration: r.Duration}
	switch {
	case r.Failure != "":
		return nonBlocking(o, "could not run: "+r.Failure)
	case r.TimedOut:
		return nonBlocking(o, fmt.Sprintf("timed out after %s and was killed", r.Timeout))
	case r.ExitCode == 2:
		o.Status = Blocking
		reason := strings.TrimSpace(r.Stderr)
		if reason == "" {
			reason = "No stderr output"
		}
		switch e {
		case PreToolUse: // Claude Code tells the model which hook: "[command]: stderr"
			o.Decision, o.Reason = Deny, fmt.Sprintf("[%s]: %s", r.Command, reason)
		case PermissionRequest:
			o.Decision, o.Reason = Deny, reason
		case PostToolUse, PostToolUseFailure: // for the model too: "[command]: stderr"
			o.Block, o.BlockReason = true, fmt.Sprintf("[%s]: %s", r.Command, reason)
		default:
			o.Block, o.BlockReason = true, reason
		}
		return o
	case r.ExitCode != 0:
		msg := fmt.Sprintf("failed with exit code %d", r.ExitCode)
		if s := strings.TrimSpace(r.Stderr); s != "" {
			msg += ": " + s
		}
		return nonBlocking(o, msg)
	}
	o.Status = Success
	out := bytes.TrimSpace([]byte(r.Stdout))
	if len(out) == 0 || out[0] != '{' {
		o.Text = string(out)
		return o
	}
	var w wireOutput
	if err := json.Unmarshal(out, &w); err != nil {
		return nonBlocking(o, "printed invalid JSON: "+err.Error())
	}
	if err := apply(e, w, &o); err != nil {
		return nonBlocking(o, "printed invalid hook output: "+err.Error())
	}
	return o
}

func nonBlocking(o Outcome, msg string) Outcome {
	return Outcome{Command: o.Command, Duration: o.Duration, Status: NonBlocking, Error: msg}
}

// apply copies the fields of w that event e understands into o.
func apply(e Event, w wireOutput, o *Outcome) error {
	if w.Continue != nil && !*w.Continue {
		o.Stop, o.StopReason = true, w.StopReason
	}
	o.SystemMessage, o.SuppressOutput = w.SystemMessage, w.SuppressOutput
	if err := applyDecision(e, w, o); err != nil {
		return err
	}
	s := w.HookSpecificOutput
	if s == nil {
		return nil
	}
	if s.HookEventName != "" && s.HookEventName != string(e) {
		return fmt.Errorf("hookSpecificOutput.hookEventName is %q in a %s hook", s.HookEventName, e)
	}
	o.AdditionalContext = s.AdditionalContext
	if e == PreToolUse {
		switch d := Decision(s.PermissionDecision); d {
		case "":
		case Allow, Ask, Deny:
			// permissionDecision is the current field and wins over the legacy one.
			o.Decision, o.Reason = d, s.PermissionDecisionReason
		default:
			return fmt.Errorf("permissionDecision %q is not allow, deny or ask", s.PermissionDecision)
		}
		if isSet(s.UpdatedInput) {
			if !isObject(s.UpdatedInput) {
				return fmt.Errorf("updatedInput must be a JSON object")
			}
			o.UpdatedInput = compact(s.UpdatedInput)
		}
	}
	if e == PermissionRequest && s.Decision != nil {
		switch d := Decision(s.Decision.Behavior); d {
		case Allow, Deny:
			o.Decision, o.Reason = d, s.Decision.Message
		default:
			return fmt.Errorf("decision.behavior %q is not allow or deny", s.Decision.Behavior)
		}
		if isSet(s.Decision.UpdatedInput) {
			if !isObject(s.Decision.UpdatedInput) {
				return fmt.Errorf("decision.updatedInput must be a JSON object")
			}
			o.UpdatedInput = compact(s.Decision.UpdatedInput)
		}
	}
	if e == PostToolUse && isSet(s.UpdatedMCPToolOutput) {
		o.UpdatedMCPToolOutput = compact(s.UpdatedMCPToolOutput)
	}
	return nil
}

// applyDecision reads the top-level decision: in PreToolUse the legacy
// approve/block, which map to allow/deny; in the PostToolUse events "block".
func applyDecision(e Event, w wireOutput, o *Outcome) error {
	switch {
	case w.Decision == "":
	case e == PreToolUse && w.Decision == "approve":
		o.Decision, o.Reason = Allow, w.Reason
	case e == PreToolUse && w.Decision == "block":
		o.Decision, o.Reason = Deny, w.Reason
	case e != PreToolUse && w.Decision == "block":
		o.Block, o.BlockReason = true, w.Reason
	default:
		return fmt.Errorf("decision %q is not valid in a %s hook", w.Decision, e)
	}
	return nil
}

func isSet(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && !bytes.Equal(t, []byte("null"))
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}

// compact strips white space so that the value is stable and small in history.
func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw // already validated by Unmarshal
	}
	return b.Bytes()
}
