package hooks

import (
	"encoding/json"
	"fmt"
)

// Input is the JSON a hook command reads on stdin: Claude Code's common fields, the
// tool call, and per event the tool's response (PostToolUse) or its error
// (PostToolUseFailure).
type Input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	PermissionMode string          `json:"permission_mode"`
	HookEventName  Event           `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
	ToolResponse   json.RawMessage `json:"tool_response,omitempty"`
	// Error is a pointer so that PostToolUseFailure always carries the field, even
	// for an error with no text.
	Error *string `json:"error,omitempty"`
}

// Encode returns the stdin text. Struct fields marshal in a fixed order, so the same
// input gives the same bytes on replay.
func (in Input) Encode() (string, error) {
	if len(in.ToolInput) == 0 {
		in.ToolInput = json.RawMessage("{}")
	}
	b, err := json.Marshal(in)
	if err != nil {
		return "", fmt.Errorf("hooks: encode input: %w", err)
	}
	return string(b), nil
}

// ToolResponse builds PostToolUse's tool_response from a tool's result. toolpipe's
// tools return one text, not Claude Code's per-tool objects, so every response has
// "content"; the fields hooks written for Claude Code read most are added where they
// can be derived honestly: Bash's stdout (stdout and stderr are one stream here),
// and Write/Edit's filePath and success.
func ToolResponse(toolName string, input json.RawMessage, content string) json.RawMessage {
	resp := map[string]any{"content": content}
	switch toolName {
	case "Bash":
		resp["stdout"] = content
		resp["stderr"] = ""
		resp["interrupted"] = false
		resp["isImage"] = false
	case "Write", "Edit":
		var in struct {
			FilePath string `json:"file_path"`
		}
		_ = json.Unmarshal(input, &in) // validated before the call
		resp["filePath"] = in.FilePath
		resp["success"] = true
	}
	b, _ := json.Marshal(resp) // map keys marshal sorted: deterministic
	return b
}
