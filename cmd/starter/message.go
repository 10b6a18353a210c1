package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// assistantMessage is the Anthropic Messages format of an assistant turn.
type assistantMessage struct {
	Role    string            `json:"role"`
	Content []json.RawMessage `json:"content"`
}

// contentBlock is the part of a content block the starter looks at.
type contentBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// parseMessage reads an assistant message and returns its tool_use blocks.
func parseMessage(r io.Reader) ([]tool.Block, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read message: %w", err)
	}
	var msg assistantMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&msg); err != nil {
		return nil, badInput("%s", notAMessage(err))
	}
	if msg.Role != wire.RoleAssistant {
		return nil, badInput("the input is not an assistant message: role is %q, want \"assistant\"", msg.Role)
	}
	if msg.Content == nil {
		return nil, badInput("the assistant message has no content array")
	}
	var blocks []tool.Block
	seen := map[string]bool{}
	for i, raw := range msg.Content {
		b, ok, err := parseBlock(raw)
		if err != nil {
			return nil, badInput("content[%d]: %v", i, err)
		}
		if !ok {
			continue
		}
		if seen[b.ID] {
			return nil, badInput("content[%d]: duplicate tool_use id %q", i, b.ID)
		}
		seen[b.ID] = true
		blocks = append(blocks, b)
		if len(blocks) > workflows.MaxToolsPerTurn {
			return nil, tooManyTools(len(blocks))
		}
	}
	if len(blocks) == 0 {
		return nil, errNoToolUse("the assistant message")
	}
	return blocks, nil
}

// errNoToolUse: a message without tool_use blocks is not a turn (what holds none).
func errNoToolUse(what string) error {
	return badInput("%s has no tool_use block: there is nothing to run (a message of text only ends the model's turn; give run the messages whose tool calls should run)", what)
}

// messageShape is how the input should look, for the errors that say it does not.
const messageShape = `{"role":"assistant","content":[{"type":"tool_use","id":…,"name":…,"input":{…}}, …]}`

// notAMessage says why the input does not decode as an assistant message, without
// the decoder's Go type names (main.assistantMessage).
func notAMessage(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Sprintf("the input is a JSON %s, not an assistant message: give one message object, %s", te.Value, messageShape)
		}
		return fmt.Sprintf("the assistant message's %s is a JSON %s: want %s", te.Field, te.Value, messageShape)
	}
	if errors.Is(err, io.EOF) {
		return "the input is empty: give one assistant message, " + messageShape
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("the input is not JSON (offset %d: %v): give one assistant message, %s", se.Offset, err, messageShape)
	}
	return fmt.Sprintf("the input is not a JSON assistant message (%v): give one, %s", err, messageShape)
}

// parseBlock decodes one content block; ok is false for blocks that are not tool_use.
func parseBlock(raw json.RawMessage) (tool.Block, bool, error) {
	var cb contentBlock
	if err := json.Unmarshal(raw, &cb); err != nil {
		return tool.Block{}, false, fmt.Errorf("not a content block: %v", err)
	}
	switch cb.Type {
	case wire.BlockToolUse:
	case "text", "thinking", "redacted_thinking":
		return tool.Block{}, false, nil
	case "":
		return tool.Block{}, false, fmt.Errorf("content block has no type")
	default:
		return tool.Block{}, false, fmt.Errorf("content block type %q cannot appear in an assistant message here", cb.Type)
	}
	if len(cb.Input) > 0 && cb.Input[0] != '{' {
		return tool.Block{}, false, fmt.Errorf("tool_use %q: input must be a JSON object", cb.ID)
	}
	b := tool.Block{ID: cb.ID, Name: cb.Name, Input: cb.Input}
	if len(b.Input) == 0 {
		b.Input = json.RawMessage("{}")
	}
	if err := tool.CheckBlock(b); err != nil {
		return tool.Block{}, false, err
	}
	return b, true, nil
}

// tooManyTools is bad input: a turn holds at most workflows.MaxToolsPerTurn calls.
func tooManyTools(n int) error {
	return badInput("the message has more than %d tool_use blocks (at least %d): a turn holds at most %d; split the calls over several messages",
		workflows.MaxToolsPerTurn, n, workflows.MaxToolsPerTurn)
}

// userMessage is the answer: tool_result blocks in arrival order.
type userMessage struct {
	Role    string        `json:"role"`
	Content []resultBlock `json:"content"`
}

// resultBlock is a tool_result block as the CLI contract prints it (DESIGN §7): a
// tool.Result with its type and every field written, is_error false included,
// which wire.Block (the API's shape) leaves out when empty.
type resultBlock struct {
	Type string `json:"type"`
	tool.Result
}

func writeUserMessage(w io.Writer, results []tool.Result) error {
	msg := userMessage{Role: wire.RoleUser, Content: []resultBlock{}}
	for _, r := range results {
		msg.Content = append(msg.Content, resultBlock{Type: wire.BlockToolResult, Result: r})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(msg)
}
