// Package wire holds the Messages API's vocabulary that several packages speak:
// message roles, content block types, the content block itself (block.go) and the
// stop reasons toolpipe acts on. It is a leaf (the standard library only), so the
// pure packages (budget, conversation, hooks) and the I/O ones (activities,
// cmd/starter) share one home for each of these strings and shapes.
package wire

// Roles of the Messages API.
const (
	// RoleUser is the role of the user's messages and of tool_result answers.
	RoleUser = "user"
	// RoleAssistant is the model's role; it separates two wire-level user messages.
	RoleAssistant = "assistant"
)

// Content block types toolpipe carries. Other types a model may stream (thinking,
// server tools) are not requested by toolpipe and are dropped by the model activity.
const (
	// BlockText is a plain text content block.
	BlockText = "text"
	// BlockToolUse is a tool call of the assistant.
	BlockToolUse = "tool_use"
	// BlockToolResult is the answer to a tool_use, in a user message.
	BlockToolResult = "tool_result"
)

// StopToolUse is the stop reason of an assistant message that ends with tool calls.
const StopToolUse = "tool_use"
