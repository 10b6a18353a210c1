package workflows

import (
	"encoding/json"
	"time"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/sandbox"
	"github.com/toolpipe/toolpipe/scheduler"
)

// The names a client uses to answer a call that waits for approval (DESIGN §5).
const (
	// ApproveUpdate lets a call that waits for approval run.
	ApproveUpdate = "Approve"
	// DenyUpdate refuses a call that waits for approval; the model is told why.
	DenyUpdate = "Deny"
)

// DefaultAskTimeout is how long a call waits for an approval when TurnSettings gives
// no timeout; after it the call is denied. A day leaves a person time to answer a
// background agent, while a forgotten turn still ends.
const DefaultAskTimeout = 24 * time.Hour

// StatusAwaitingApproval is the State query's status of an executing tool whose
// call waits for an Approve or Deny.
const StatusAwaitingApproval scheduler.Status = "awaiting_approval"

// TurnSettings is what a turn enforces from Claude Code settings (DESIGN §5). It is
// loaded and resolved by the starter (files, symbolic links, the home directory) so
// that the workflow does no I/O. A turn whose settings have no hooks and no policy
// runs exactly as a turn without settings.
type TurnSettings struct {
	// Hooks are the PreToolUse, PostToolUse and PostToolUseFailure hooks.
	Hooks hooks.Config `json:"hooks"`
	// Permissions is the permission policy with its directories resolved; nil
	// means no permission checks (every call runs).
	Permissions *permissions.Policy `json:"permissions,omitempty"`
	// ProjectDir is the hooks' CLAUDE_PROJECT_DIR; empty means the working
	// directory.
	ProjectDir string `json:"project_dir,omitempty"`
	// TranscriptPath is given to hooks as transcript_path.
	TranscriptPath string `json:"transcript_path,omitempty"`
	// AskTimeout bounds the wait for an approval; 0 means DefaultAskTimeout.
	AskTimeout time.Duration `json:"ask_timeout,omitempty"`
	// Sandbox are Claude Code's sandbox settings, paths resolved; nil: Bash runs
	// unsandboxed.
	Sandbox *sandbox.Settings `json:"sandbox,omitempty"`
}

// sandboxSettings returns the sandbox settings, nil without settings.
func (s *TurnSettings) sandboxSettings() *sandbox.Settings {
	if s == nil {
		return nil
	}
	return s.Sandbox
}

// gates reports whether the settings change anything about running a tool.
func (s *TurnSettings) gates() bool {
	return s != nil && (s.Permissions != nil || s.Hooks.ToolGates())
}

// ApprovalRequest is the argument of ApproveUpdate and DenyUpdate.
type ApprovalRequest struct {
	ToolUseID string `json:"tool_use_id"`
	// Reason is the person's note: for a denial, it is passed to the model.
	Reason string `json:"reason,omitempty"`
	// Message, for a denial, is the whole text the model is told instead of
	// toolpipe's sentence around Reason: the Claude Agent SDK's canUseTool deny
	// message, which Claude Code passes on as it is.
	Message string `json:"message,omitempty"`
	// UpdatedInput, for an approval, replaces the call's input (validated again,
	// as a PreToolUse hook's updatedInput): the SDK's canUseTool updatedInput.
	UpdatedInput json.RawMessage `json:"updated_input,omitempty"`
}

// PendingApproval is a call waiting for approval, as the State query shows it.
type PendingApproval struct {
	ToolUseID   string `json:"tool_use_id"`
	Tool        string `json:"tool"`
	Description string `json:"description"`
	// Reason says why approval is needed (the rule, the mode or the hook).
	Reason string `json:"reason"`
	// Input is the call's input, for whoever answers (the SDK's can_use_tool).
	Input    json.RawMessage `json:"input,omitempty"`
	Since    time.Time       `json:"since"`
	Deadline time.Time       `json:"deadline"`
}

// Notice is something the user should see about a call: a hook's systemMessage, a
// hook that failed without blocking, a slow hook phase.
type Notice struct {
	ToolUseID string `json:"tool_use_id"`
	Text      string `json:"text"`
}
