package hooks

import (
	"encoding/json"
	"fmt"
)

// Input is the JSON a hook command reads on stdin, with Claude Code's field names:
// the common fields every event has, then the fields of the event. Fields an event
// does not have are left out, as Claude Code leaves them out; fields an event always
// has (is_interrupt, stop_hook_active) are pointers so that false is still sent.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	// PromptID names the user prompt the event belongs to (one per `starter run`
	// turn, one per user message of a session); SessionStart and SessionEnd have
	// none.
	PromptID string `json:"prompt_id,omitempty"`
	// PermissionMode is the mode in force; SessionStart and SessionEnd have none.
	PermissionMode string `json:"permission_mode,omitempty"`
	HookEventName  Event  `json:"hook_event_name"`

	// The tool events.
	ToolName  string          `json:"tool_name,omitempty"`
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
	// ToolResponse is the tool's structured output (PostToolUse), in the shapes of
	// Claude Code's sdk-tools.d.ts.
	ToolResponse json.RawMessage `json:"tool_response,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	// Error is a pointer so that PostToolUseFailure always carries the field, even
	// for an error with no text.
	Error       *string `json:"error,omitempty"`
	IsInterrupt *bool   `json:"is_interrupt,omitempty"`
	// DurationMS is how long the call ran (PostToolUse, PostToolUseFailure).
	DurationMS *int64 `json:"duration_ms,omitempty"`

	// PermissionSuggestions are the rules that would allow the call next time
	// (PermissionRequest).
	PermissionSuggestions []PermissionSuggestion `json:"permission_suggestions,omitempty"`

	// Source is how a session started: startup, resume or compact (SessionStart).
	Source string `json:"source,omitempty"`
	// Prompt is the user's message (UserPromptSubmit).
	Prompt *string `json:"prompt,omitempty"`
	// StopHookActive says the agent is already going on because a Stop hook
	// blocked (Stop, SubagentStop): a hook checks it so as not to loop forever.
	StopHookActive       *bool   `json:"stop_hook_active,omitempty"`
	LastAssistantMessage *string `json:"last_assistant_message,omitempty"`
	// Trigger says what started a compaction, manual or auto, and
	// CustomInstructions are the user's instructions for its summary (PreCompact).
	Trigger            string  `json:"trigger,omitempty"`
	CustomInstructions *string `json:"custom_instructions,omitempty"`
	// Reason is why the session ended (SessionEnd).
	Reason string `json:"reason,omitempty"`
	// Message and NotificationType say what the user is asked (Notification).
	Message          string `json:"message,omitempty"`
	Title            string `json:"title,omitempty"`
	NotificationType string `json:"notification_type,omitempty"`
	// AgentID and AgentTranscriptPath name the sub-agent that stops (SubagentStop).
	AgentID             string `json:"agent_id,omitempty"`
	AgentType           string `json:"agent_type,omitempty"`
	AgentTranscriptPath string `json:"agent_transcript_path,omitempty"`
	// BackgroundTasks are the session's background tasks still running (Stop,
	// SubagentStop); a pointer so that an empty list is still sent, as Claude Code
	// sends it.
	BackgroundTasks *[]BackgroundTask `json:"background_tasks,omitempty"`
}

// BackgroundTask is one entry of background_tasks, in Claude Code's shape.
type BackgroundTask struct {
	ID          string `json:"id"`
	Type        string `json:"type"` // "shell"
	Status      string `json:"status"`
	Description string `json:"description"`
	Command     string `json:"command"`
}

// PermissionSuggestion is one entry of permission_suggestions: a rule that would
// allow the call, in the shape Claude Code sends.
type PermissionSuggestion struct {
	Type        string                `json:"type"`
	Rules       []PermissionRuleValue `json:"rules"`
	Behavior    string                `json:"behavior"`
	Destination string                `json:"destination"`
}

// PermissionRuleValue is a rule as {toolName, ruleContent}.
type PermissionRuleValue struct {
	ToolName    string `json:"toolName"`
	RuleContent string `json:"ruleContent,omitempty"`
}

// IsToolEvent reports whether e is about one tool call.
func (e Event) IsToolEvent() bool {
	switch e {
	case PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest:
		return true
	}
	return false
}

// Encode returns the stdin text. Struct fields marshal in a fixed order, so the same
// input gives the same bytes on replay. ToolInput and ToolResponse are as the tool
// gives them to hooks (tool.Definition.HookInput, HookResponse).
func (in Input) Encode() (string, error) {
	if in.HookEventName.IsToolEvent() && len(in.ToolInput) == 0 {
		in.ToolInput = json.RawMessage("{}")
	}
	b, err := json.Marshal(in)
	if err != nil {
		return "", fmt.Errorf("hooks: encode input: %w", err)
	}
	return string(b), nil
}
