package wire

import "encoding/json"

// Block is one content block of a Messages API message, as the API takes it and as
// a session's conversation is stored. It is the one shape of a block that the
// conversation, the content-replacement budget and the model activity share, so a
// tool_result's text is in Content wherever it is read. Which fields are set
// depends on Type: Text for text; ID, Name and Input for tool_use; ToolUseID,
// Content and IsError for tool_result. Empty fields are left out: the API refuses
// fields that do not belong to a block's type.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   string          `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

// TextBlock is a text block.
func TextBlock(text string) Block { return Block{Type: BlockText, Text: text} }

// ToolResultBlock is the tool_result block answering the tool_use id.
func ToolResultBlock(id, content string, isError bool) Block {
	return Block{Type: BlockToolResult, ToolUseID: id, Content: content, IsError: isError}
}
