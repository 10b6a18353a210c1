package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// assistantMessage is the Anthropic Messages format of an assistant turn.
type assistantMessage struct {
	Role    string        `json:"role"`
	Content []lazyContent `json:"content"`
}

// lazyContent decodes one content block where the message holds it, and keeps
// the error of one that does not decode, so it is reported with its index.
type lazyContent struct {
	cb  contentBlock
	err error
}

func (l *lazyContent) UnmarshalJSON(data []byte) error {
	l.err = json.Unmarshal(data, &l.cb)
	return nil
}

// contentBlock is the part of a content block the starter looks at.
type contentBlock struct {
	Type  string     `json:"type"`
	ID    string     `json:"id"`
	Name  string     `json:"name"`
	Input blockInput `json:"input"`
}

// blockInput is a tool_use input, copied out of the message only when it is
// within the largest input any tool takes: a larger one (a 200 MB Write) is only
// measured, so the message is held in memory once, and the block goes to the turn
// without it (tool.Registry.DropOversizeInput), to be answered with the tool's size error.
type blockInput struct {
	raw  json.RawMessage
	size int
	// object says the input is a JSON object, as a tool_use input must be.
	object bool
}

func (in *blockInput) UnmarshalJSON(data []byte) error {
	in.size, in.object = len(data), len(data) > 0 && data[0] == '{'
	if len(data) <= tool.MaxBlockInputBytes {
		in.raw = append(json.RawMessage(nil), data...)
	}
	return nil
}

// parseMessage reads an assistant message and returns its tool_use blocks.
func parseMessage(r io.Reader) ([]tool.Block, error) {
	data, err := readAll(r)
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
	total := 0
	for i, c := range msg.Content {
		if c.err != nil {
			return nil, badInput("content[%d]: not a content block: %v", i, c.err)
		}
		b, ok, err := assistantToolUse(c.cb)
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
		if total += len(b.Input); total > maxStartInputBytes {
			return nil, badInput("the message's tool inputs total over %d bytes, more than a turn's start can carry (one payload holds at most %d): "+
				"hand the blocks over one at a time with `starter run --stream` (one content block per line)", maxStartInputBytes, persistence.MaxPayloadBytes)
		}
	}
	if len(blocks) == 0 {
		return nil, errNoToolUse("the assistant message")
	}
	return blocks, nil
}

// maxStartInputBytes bounds the inputs of a whole message, which start its turn in
// one payload: the payload store's limit with room for the rest of the turn's input.
const maxStartInputBytes = persistence.MaxPayloadBytes - 1<<20

// readAll reads the whole message into one buffer sized from the file when r is
// one, rather than growing it by doubling (a 200 MB message would peak at twice
// that).
func readAll(r io.Reader) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > 0 {
			buf := bytes.NewBuffer(make([]byte, 0, st.Size()+bytes.MinRead)) // ReadFrom keeps MinRead free
			_, err := buf.ReadFrom(f)
			return buf.Bytes(), err
		}
	}
	return io.ReadAll(r)
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
	return assistantToolUse(cb)
}

// assistantToolUse checks a decoded content block; ok is false for blocks that are not
// tool_use. An input over the tool's limit is dropped here, before anything
// stores it (tool.Registry.DropOversizeInput).
func assistantToolUse(cb contentBlock) (tool.Block, bool, error) {
	switch cb.Type {
	case wire.BlockToolUse:
	case "text", "thinking", "redacted_thinking":
		return tool.Block{}, false, nil
	case "":
		return tool.Block{}, false, fmt.Errorf("content block has no type")
	default:
		return tool.Block{}, false, fmt.Errorf("content block type %q cannot appear in an assistant message here", cb.Type)
	}
	if cb.Input.size > 0 && !cb.Input.object {
		return tool.Block{}, false, fmt.Errorf("tool_use %q: input must be a JSON object", cb.ID)
	}
	b := tool.Block{ID: cb.ID, Name: cb.Name, Input: cb.Input.raw}
	switch {
	case cb.Input.size > len(b.Input): // over any tool's limit: not even copied
		b.Input, b.InputBytes = nil, cb.Input.size
	case len(b.Input) == 0:
		b.Input = json.RawMessage("{}")
	}
	if err := tool.CheckBlock(b); err != nil {
		return tool.Block{}, false, err
	}
	return activities.Builtins().DropOversizeInput(b), true, nil
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
