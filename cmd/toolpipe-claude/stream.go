package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/wire"
)

// The messages toolpipe-claude writes, in the shapes of the SDK's sdk.d.ts
// (SDKSystemMessage, SDKAssistantMessage, SDKUserMessage, SDKPartialAssistantMessage,
// SDKResultMessage) and as Claude Code 2.1.328 fills them
// (test/claudesdk/testdata/claude-code-2.1.328/).

// claudeCodeVersion is the Claude Code release whose protocol toolpipe-claude speaks.
const claudeCodeVersion = "2.1.328"

// initMessage is system/init: what the session runs with, sent at the start of
// every prompt as Claude Code does.
type initMessage struct {
	Type              string      `json:"type"`
	Subtype           string      `json:"subtype"`
	CWD               string      `json:"cwd"`
	SessionID         string      `json:"session_id"`
	Tools             []string    `json:"tools"`
	MCPServers        []mcpStatus `json:"mcp_servers"`
	Model             string      `json:"model"`
	PermissionMode    string      `json:"permissionMode"`
	SlashCommands     []string    `json:"slash_commands"`
	APIKeySource      string      `json:"apiKeySource"`
	ClaudeCodeVersion string      `json:"claude_code_version"`
	OutputStyle       string      `json:"output_style"`
	Agents            []string    `json:"agents"`
	Skills            []string    `json:"skills"`
	Plugins           []plugin    `json:"plugins"`
	Capabilities      []string    `json:"capabilities"`
	UUID              string      `json:"uuid"`
	AdditionalDirs    []string    `json:"additional_directories"`
	FastModeState     string      `json:"fast_mode_state"`
	// Toolpipe says what runs the session underneath: its workflow id and state
	// directory, for `starter agent status` and the Web UI.
	Toolpipe *toolpipeInfo `json:"toolpipe,omitempty"`
}

type mcpStatus struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Source string `json:"source,omitempty"`
}

type plugin struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

type toolpipeInfo struct {
	Workflow string `json:"workflow"`
	StateDir string `json:"state_dir"`
}

// apiMessage is the Messages API message an assistant message carries.
type apiMessage struct {
	ID                string       `json:"id"`
	Type              string       `json:"type"`
	Role              string       `json:"role"`
	Model             string       `json:"model"`
	Content           []wire.Block `json:"content"`
	StopReason        *string      `json:"stop_reason"`
	StopSequence      *string      `json:"stop_sequence"`
	Usage             apiUsage     `json:"usage"`
	ContextManagement any          `json:"context_management"`
}

type apiUsage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
}

// assistantMessage is one content block of the model's message: Claude Code sends
// each block as it completes, all under the message's id.
type assistantMessage struct {
	Type            string     `json:"type"`
	Message         apiMessage `json:"message"`
	ParentToolUseID *string    `json:"parent_tool_use_id"`
	SessionID       string     `json:"session_id"`
	UUID            string     `json:"uuid"`
	Timestamp       string     `json:"timestamp"`
}

// resultBlock is a tool_result as Claude Code sends it back: content a string (or
// an MCP tool's content blocks), is_error omitted for a Read that succeeded.
type resultBlock struct {
	ToolUseID string          `json:"tool_use_id"`
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	IsError   *bool           `json:"is_error,omitempty"`
}

type userContent struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

// userOut is a user message toolpipe-claude sends: one tool_result (with the
// tool's structured output, tool_use_result, where Claude Code gives one), or a
// text such as the interrupt's.
type userOut struct {
	Type            string          `json:"type"`
	Message         userContent     `json:"message"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	SessionID       string          `json:"session_id"`
	UUID            string          `json:"uuid"`
	Timestamp       string          `json:"timestamp"`
	ToolUseResult   json.RawMessage `json:"tool_use_result,omitempty"`
}

// partialMessage is a stream_event: one raw event of the model's stream.
type partialMessage struct {
	Type            string  `json:"type"`
	Event           any     `json:"event"`
	ParentToolUseID *string `json:"parent_tool_use_id"`
	UUID            string  `json:"uuid"`
	SessionID       string  `json:"session_id"`
	// APIMessageID is the id of the assistant message the event is part of.
	APIMessageID string `json:"api_message_id"`
	// TTFTMS and ThinkingDisplay are on message_start only, as Claude Code's
	// (toolpipe measures no time to first token: 0).
	TTFTMS          *int64 `json:"ttft_ms,omitempty"`
	ThinkingDisplay string `json:"thinking_display,omitempty"`
}

func now() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

// toolResult is one tool_result block the way Claude Code reports it.
func toolResult(b wire.Block, toolName string, input json.RawMessage, session string) userOut {
	content, _ := json.Marshal(b.Content)
	mcp := strings.HasPrefix(toolName, "mcp__")
	if mcp && !b.IsError {
		// An MCP tool's content blocks, as Claude Code passes them on (toolpipe
		// keeps their text).
		content, _ = json.Marshal([]map[string]string{{"type": "text", "text": b.Content}})
	}
	isErr := b.IsError
	rb := resultBlock{ToolUseID: b.ToolUseID, Type: wire.BlockToolResult, Content: content}
	if isErr || (toolName != "Read" && !mcp) {
		rb.IsError = &isErr
	}
	u := userOut{Type: "user", Message: userContent{Role: wire.RoleUser, Content: []resultBlock{rb}},
		SessionID: session, UUID: newUUID(), Timestamp: now()}
	switch {
	case isErr:
		u.ToolUseResult, _ = json.Marshal("Error: " + b.Content)
	case mcp:
		u.ToolUseResult = content
	case toolName == "Read":
		u.ToolUseResult = readResponse(input, b.Content)
	case toolName == "Bash" && b.Content == "(Bash completed with no output)":
		u.ToolUseResult, _ = json.Marshal(activities.BashResponse{})
	default:
		if def, ok := activities.Builtins().Lookup(toolName); ok {
			if r := def.HookResponse(input, b.Content); len(r) > 0 && string(r) != "null" {
				u.ToolUseResult = r
			}
		}
	}
	return u
}

// textMessage is a user message of text, such as Claude Code's
// "[Request interrupted by user for tool use]".
func textMessage(text, session string) userOut {
	return userOut{Type: "user", SessionID: session, UUID: newUUID(), Timestamp: now(),
		Message: userContent{Role: wire.RoleUser, Content: []map[string]string{{"type": "text", "text": text}}}}
}

// readResponse is Read's structured output (sdk-tools.d.ts FileReadOutput) of a
// text file, from the numbered lines of its result ("N\tline"); a result of
// another kind (an image, a notice) is passed on as its text.
func readResponse(input json.RawMessage, content string) json.RawMessage {
	var in struct {
		FilePath string `json:"file_path"`
	}
	_ = json.Unmarshal(input, &in)
	lines := strings.Split(content, "\n")
	var text []string
	start := 0
	for i, l := range lines {
		num, rest, ok := strings.Cut(strings.TrimLeft(l, " "), "\t")
		n, err := strconv.Atoi(num)
		if !ok || err != nil {
			raw, _ := json.Marshal(content)
			return raw
		}
		if i == 0 {
			start = n
		}
		text = append(text, rest)
	}
	out, _ := json.Marshal(map[string]any{"type": "text", "file": map[string]any{"filePath": in.FilePath,
		"content": strings.Join(text, "\n"), "numLines": len(lines), "startLine": start, "totalLines": start - 1 + len(lines)}})
	return out
}
