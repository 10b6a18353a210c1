package workflows

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/tool"
)

// rejection is a refused update or start input: an application error of the given
// type, not retryable, whose message says what was wrong.
func rejection(errType, format string, args ...any) error {
	return temporal.NewApplicationErrorWithOptions(fmt.Sprintf(format, args...), errType,
		temporal.ApplicationErrorOptions{NonRetryable: true})
}

// Rejected reports whether err is the Turn's refusal of the given type (one of the
// Err* constants), however many layers of wrapping the client added.
func Rejected(err error, errType string) bool {
	var ae *temporal.ApplicationError
	return errors.As(err, &ae) && ae.Type() == errType
}

// message is an error's own text without the SDK's "(type: …, retryable: …)" tail.
func message(err error) string {
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) {
		return ae.Message()
	}
	return err.Error()
}

// MaxToolsPerTurn bounds one turn so that its history and state stay bounded.
const MaxToolsPerTurn = 2000

// TurnInput starts a Turn.
type TurnInput struct {
	// SessionID groups turns: persisted outputs live under it.
	SessionID string `json:"session_id"`
	// Workdir is the tools' working directory.
	Workdir string `json:"workdir"`
	// Blocks are tool_use blocks known at start (all of them, when CloseIntake).
	Blocks []tool.Block `json:"blocks,omitempty"`
	// CloseIntake says Blocks is the whole message: the turn ends when they are done.
	CloseIntake bool `json:"close_intake,omitempty"`
	// Context is the turn context carried over from earlier turns.
	Context tool.Context `json:"context"`
	// Options tune timeouts and retries; zero values take the defaults.
	Options TurnOptions `json:"options"`
	// SearchAttributes says the namespace has ToolpipeSessionID and ToolpipeStatus
	// registered, so the turn keeps them up to date; false on clusters without them.
	SearchAttributes bool `json:"search_attributes,omitempty"`
	// FailedCallsAttribute says the namespace also has ToolpipeFailedCalls (Int):
	// the finished turn sets it to how many of its calls failed.
	FailedCallsAttribute bool `json:"failed_calls_attribute,omitempty"`
	// ToolQueue is the task queue of the host the session is placed on (fleet.go):
	// the turn's tools, command hooks, path resolution, transcript and MCP calls go
	// there; empty is the turn's own queue, as before placement.
	ToolQueue string `json:"tool_queue,omitempty"`
	// Generation is the session's placement generation, carried in every tool call
	// so that a host the session has left refuses it (activities/fence.go).
	Generation int `json:"generation,omitempty"`
	// Settings are the hooks and permission policy the turn enforces; nil means
	// none (every call runs, no hook).
	Settings *TurnSettings `json:"settings,omitempty"`
	// MCP says the working directory has a .mcp.json: the turn first lists its
	// servers' tools (the ListMCPTools activity), unless MCPTools are given.
	MCP bool `json:"mcp,omitempty"`
	// MCPTools are MCP tools listed already (a Session lists them once for its
	// model calls and its turns); the turn uses them without listing.
	MCPTools []tool.MCPSpec `json:"mcp_tools,omitempty"`
	// PromptID is the hooks' prompt_id (the user message the turn answers); empty
	// means one derived from the turn's workflow id.
	PromptID string `json:"prompt_id,omitempty"`
	// TranscriptParent is the transcript entry the turn's first entries follow
	// (the session's last message); empty for a turn of its own.
	TranscriptParent string `json:"transcript_parent,omitempty"`
}

// TurnOptions tune how tools run.
type TurnOptions struct {
	// HeartbeatTimeout is how long a silent tool activity counts as alive; it bounds
	// how fast a lost worker is noticed. Default 20s.
	HeartbeatTimeout time.Duration `json:"heartbeat_timeout,omitempty"`
	// SafeAttempts is how many times a read-only tool is tried. Default 3.
	SafeAttempts int32 `json:"safe_attempts,omitempty"`
	// HostStartTimeout is how long a call waits in its host's queue (a placed
	// session's) before the host counts as lost and the call as not run (default
	// 30s; host_loss.go).
	HostStartTimeout time.Duration `json:"host_start_timeout,omitempty"`
}

func (o TurnOptions) withDefaults() TurnOptions {
	if o.HeartbeatTimeout <= 0 {
		o.HeartbeatTimeout = 20 * time.Second
	}
	if o.SafeAttempts <= 0 {
		o.SafeAttempts = 3
	}
	if o.HostStartTimeout <= 0 {
		o.HostStartTimeout = 30 * time.Second
	}
	return o
}

// TurnResult is the workflow result: every tool_result in arrival order, and the turn
// context after all modifiers were applied.
type TurnResult struct {
	Results []tool.Result `json:"results"`
	Context tool.Context  `json:"context"`
	// Stop says a hook returned continue: false: the session ends after this turn,
	// and StopReason tells the user why.
	Stop       bool   `json:"stop,omitempty"`
	StopReason string `json:"stop_reason,omitempty"`
	// Notices are for the user, not the model (hook messages, slow hooks).
	Notices []Notice `json:"notices,omitempty"`
}

// CollectRequest asks for the results yielded from index From on.
type CollectRequest struct {
	From int `json:"from"`
}

// CollectResponse carries newly yielded results; Next is the cursor for the next call
// and Done says the turn has yielded everything it will.
type CollectResponse struct {
	Results []tool.Result `json:"results"`
	Next    int           `json:"next"`
	Done    bool          `json:"done"`
	// Final is, once Done, the rest of the turn's result (its context, stop and
	// notices; no Results, which came through the cursor), so that a client that
	// collected every result needs nothing more. Turns of older workers leave it
	// nil: their result is then the workflow's.
	Final *TurnResult `json:"final,omitempty"`
}

// ToolState is one tool as the State query shows it.
type ToolState struct {
	ID          string                 `json:"id"`
	Name        string                 `json:"name"`
	Description string                 `json:"description"`
	Status      scheduler.Status       `json:"status"`
	Safe        bool                   `json:"safe"`
	Interrupt   tool.InterruptBehavior `json:"interrupt"`
	IsError     bool                   `json:"is_error,omitempty"`
	// Error is the first line of a finished call's error result, for people.
	Error string `json:"error,omitempty"`
}

// TurnState is the State query's answer.
type TurnState struct {
	Tools         []ToolState `json:"tools"`
	Interruptible bool        `json:"interruptible"`
	IntakeClosed  bool        `json:"intake_closed"`
	Errored       bool        `json:"errored"`
	// Pending are the calls waiting for approval, in arrival order.
	Pending []PendingApproval `json:"pending,omitempty"`
	// Notices are for the user (see TurnResult.Notices).
	Notices []Notice `json:"notices,omitempty"`
}

// InterruptRequest is contract.InterruptSignal's payload. None (as every signal before it
// carried) or the zero value is a new user message.
type InterruptRequest struct {
	// NoMessage: the user interrupted without sending a message (`starter agent
	// interrupt`); the stopped tools say so instead of pointing at a message.
	NoMessage bool `json:"no_message,omitempty"`
}
