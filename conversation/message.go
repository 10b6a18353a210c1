package conversation

import (
	"strings"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
)

// Message is one message of the conversation, as the Messages API takes it.
type Message struct {
	Role    string       `json:"role"`
	Content []wire.Block `json:"content"`
	// StopReason is why the model ended an assistant message; it is kept with the
	// stored message and never sent back to the model.
	StopReason string `json:"stop_reason,omitempty"`
}

// UserText is a user message of one text block.
func UserText(text string) Message {
	return Message{Role: wire.RoleUser, Content: []wire.Block{wire.TextBlock(text)}}
}

// ToolResults is the user message answering a turn, in the order given.
func ToolResults(results []tool.Result) Message {
	m := Message{Role: wire.RoleUser, Content: make([]wire.Block, 0, len(results))}
	for _, r := range results {
		m.Content = append(m.Content, wire.ToolResultBlock(r.ToolUseID, r.Content, r.IsError))
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

// ToBudget gives the budget package its view of msgs: their roles and blocks, which
// it shares (Enforce never writes to them), so that Enforce's output converts back
// with FromBudget.
func ToBudget(msgs []Message) []budget.Message {
	out := make([]budget.Message, len(msgs))
	for i, m := range msgs {
		out[i] = budget.Message{Role: m.Role, Blocks: m.Content}
	}
	return out
}

// FromBudget gives msgs the blocks of budgeted (Enforce's output, parallel to msgs),
// where only tool_result contents can differ. The blocks are shared, not copied.
func FromBudget(msgs []Message, budgeted []budget.Message) []Message {
	out := make([]Message, len(msgs))
	for i, m := range msgs {
		m.Content = budgeted[i].Blocks
		out[i] = m
	}
	return out
}
