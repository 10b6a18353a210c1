package conversation

import (
	"encoding/json"
	"strings"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
)

// Message is one message of the conversation, as the Messages API takes it.
type Message struct {
	Role    string  `json:"role"`
	Content []Block `json:"content"`
	// StopReason is why the model ended an assistant message; it is kept with the
	// stored message and never sent back to the model.
	StopReason string `json:"stop_reason,omitempty"`
}

// Block is one content block. Which fields are set depends on Type: Text for text;
// ID, Name and Input for tool_use; ToolUseID, Content and IsError for tool_result.
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

// UserText is a user message of one text block.
func UserText(text string) Message {
	return Message{Role: wire.RoleUser, Content: []Block{{Type: wire.BlockText, Text: text}}}
}

// ToolResults is the user message answering a turn, in the order given.
func ToolResults(results []tool.Result) Message {
	m := Message{Role: wire.RoleUser, Content: make([]Block, 0, len(results))}
	for _, r := range results {
		m.Content = append(m.Content, Block{Type: wire.BlockToolResult, ToolUseID: r.ToolUseID, Content: r.Content, IsError: r.IsError})
	}
	return m
}

// ToolUses returns the tool_use blocks of m as tool blocks, in order.
func (m Message) ToolUses() []tool.Block {
	var out []tool.Block
	for _, b := range m.Content {
		if b.Type == wire.BlockToolUse {
			out = append(out, tool.Block{ID: b.ID, Name: b.Name, Input: b.Input})
		}
	}
	return out
}

// Text joins the text blocks of m.
func (m Message) Text() string {
	var parts []string
	for _, b := range m.Content {
		if b.Type == wire.BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Size is the number of bytes of text the message carries (texts, inputs, results):
// the measure the workflow keeps instead of the message.
func (m Message) Size() int {
	n := 0
	for _, b := range m.Content {
		n += len(b.Text) + len(b.Input) + len(b.Content)
	}
	return n
}

// ToBudget converts messages to the budget package's view, keeping every block so
// that Enforce's output converts back with FromBudget.
func ToBudget(msgs []Message) []budget.Message {
	out := make([]budget.Message, len(msgs))
	for i, m := range msgs {
		bm := budget.Message{Role: m.Role, Blocks: make([]budget.Block, len(m.Content))}
		for j, b := range m.Content {
			bb := budget.Block{Type: b.Type, ToolUseID: b.ToolUseID, IsError: b.IsError}
			if b.Type == wire.BlockToolResult {
				bb.Text = b.Content
			} else {
				bb.Text = b.Text
			}
			bm.Blocks[j] = bb
		}
		out[i] = bm
	}
	return out
}

// FromBudget applies the tool_result texts of budgeted (Enforce's output, parallel
// to msgs) to copies of msgs. Only tool_result contents can differ.
func FromBudget(msgs []Message, budgeted []budget.Message) []Message {
	out := make([]Message, len(msgs))
	for i, m := range msgs {
		c := Message{Role: m.Role, Content: make([]Block, len(m.Content))}
		copy(c.Content, m.Content)
		for j := range c.Content {
			if c.Content[j].Type == wire.BlockToolResult {
				c.Content[j].Content = budgeted[i].Blocks[j].Text
			}
		}
		out[i] = c
	}
	return out
}
