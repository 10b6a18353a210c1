package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolpipe/toolpipe/persisted"
)

// Block is one tool_use content block of an assistant message, as the model streamed
// it. Input stays raw JSON so that the schema check sees exactly what the model sent.
type Block struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
	// InputBytes is the size of an input dropped before the block was sent because
	// it was over the tool's limit (DropOversizeInput); Input is then empty.
	InputBytes int `json:"input_bytes,omitempty"`
}

// Result is one tool_result content block of the user message that answers a turn.
type Result struct {
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content"`
	IsError   bool   `json:"is_error"`
}

// CheckBlock reports why a block is malformed, or nil. A malformed block cannot even
// be tracked (no id to answer to), unlike an unknown tool or a bad input, which are
// answered with an error result.
func CheckBlock(b Block) error {
	if b.ID == "" {
		return fmt.Errorf("tool_use block has no id")
	}
	// The id names the files of its persisted output and part of workflow ids: one
	// the state directory cannot store is refused here, not found out mid-turn.
	if err := persisted.ValidateName("tool_use id", b.ID); err != nil {
		return fmt.Errorf("%v: tool_use ids must be usable as a file name (no '/', '\\', '..' or NUL; at most %d bytes)",
			err, persisted.MaxNameBytes)
	}
	if b.Name == "" {
		return fmt.Errorf("tool_use block %q has no name", b.ID)
	}
	if len(b.Input) == 0 {
		return nil // a missing input is answered by the schema check, not rejected here
	}
	if !json.Valid(b.Input) {
		return fmt.Errorf("tool_use block %q: input is not valid JSON", b.ID)
	}
	return nil
}

// ErrorResult builds an is_error tool_result for id.
func ErrorResult(id, content string) Result {
	return Result{ToolUseID: id, Content: content, IsError: true}
}

// Describe names a call of a tool no registry has, by the fields tools name their
// main argument by, or its input for an MCP tool (Definition.Describe names the
// calls of known tools).
func Describe(b Block) string {
	summary := Base{}.Subject(b.Input)
	if summary == "" && IsMCPName(b.Name) {
		summary = compactPrefix(b.Input)
	}
	return describe(b.Name, summary)
}

// Describe names a call for people and for the sibling-cancel message, as Claude
// Code does: the tool name and its subject, shortened to 40 characters.
func (d *Definition) Describe(input json.RawMessage) string {
	return describe(d.Name(), d.tool.Subject(input))
}

func describe(name, summary string) string {
	// A few KiB are plenty for 40 characters: a 10 MB command costs no more.
	if len(summary) > 4096 {
		summary = summary[:4096]
	}
	summary = strings.Join(strings.Fields(summary), " ")
	if r := []rune(summary); len(r) > 40 {
		summary = string(r[:40]) + "…"
	}
	return fmt.Sprintf("%s(%s)", name, summary)
}

// compactPrefix is the input's JSON without insignificant spaces, from its first
// 4 KiB at most (enough for a 40-character summary).
func compactPrefix(in json.RawMessage) string {
	var buf bytes.Buffer
	if len(in) <= 4096 && json.Compact(&buf, in) == nil {
		return buf.String()
	}
	return string(in[:min(len(in), 4096)])
}
