package tool

import (
	"context"
	"encoding/json"
	"fmt"
)

// CustomSpec describes a tool that a program embedding toolpipe adds beside the
// built-in ones. NewCustom checks it and makes it a Tool, which goes into a
// Registry like the built-in tools.
type CustomSpec struct {
	// Name is the name the model calls the tool by.
	Name string
	// Description tells the model what the tool does and when to use it.
	Description string
	// InputSchema is the JSON Schema of the input: an object schema, with no
	// external references.
	InputSchema json.RawMessage
	// MaxResultSizeChars is the largest result returned inline; larger ones are
	// persisted and previewed (DESIGN §4). 0 means DefaultMaxResultSizeChars.
	MaxResultSizeChars int
	// Interrupt is what a user's new message does to a running call; empty means
	// InterruptBlock.
	Interrupt InterruptBehavior
	// IsConcurrencySafe says whether a call with this (validated) input may run
	// beside other safe calls, and be retried after its worker was lost. Workflow
	// code calls it: it must be pure and deterministic. nil means never safe.
	IsConcurrencySafe func(input json.RawMessage) bool
	// Run runs one call on a worker.
	Run func(ctx context.Context, call Call) (Output, error)
}

// NewCustom checks a custom tool's spec and compiles its schema. The errors say what
// is wrong with the spec and how to fix it.
func NewCustom(s CustomSpec) (Tool, error) {
	switch {
	case IsMCPName(s.Name):
		return nil, fmt.Errorf("tool name %q starts with %q, which names MCP servers' tools; pick another name", s.Name, MCPPrefix)
	case !toolNamePattern.MatchString(s.Name):
		return nil, fmt.Errorf("tool name %q is not 1-64 letters, digits, '_' or '-' (what the Messages API accepts)", s.Name)
	case s.Description == "":
		return nil, fmt.Errorf("tool %s: Description is empty; the model picks tools by their description", s.Name)
	case len(s.InputSchema) == 0:
		return nil, fmt.Errorf("tool %s: InputSchema is empty; give a JSON Schema such as {\"type\":\"object\",\"properties\":{…}}", s.Name)
	case s.MaxResultSizeChars < 0 || s.MaxResultSizeChars == Unlimited:
		return nil, fmt.Errorf("tool %s: MaxResultSizeChars is %d; give a positive number of characters (0 for %d)",
			s.Name, s.MaxResultSizeChars, DefaultMaxResultSizeChars)
	case s.Run == nil:
		return nil, fmt.Errorf("tool %s: Run is nil; give the function that runs a call", s.Name)
	}
	var top struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(s.InputSchema, &top); err != nil {
		return nil, fmt.Errorf("tool %s: InputSchema is not a JSON object: %v", s.Name, err)
	}
	if top.Type != "object" {
		return nil, fmt.Errorf(`tool %s: InputSchema must have "type": "object" (the Messages API takes object inputs only)`, s.Name)
	}
	t := &customTool{s: s}
	if _, err := Compile(t); err != nil {
		return nil, err
	}
	return t, nil
}

// customTool is a program's own tool.
type customTool struct {
	Base
	s CustomSpec
}

func (t *customTool) Spec() Spec {
	return Spec{Name: t.s.Name, Description: t.s.Description, InputSchema: string(t.s.InputSchema),
		MaxResultSizeChars: t.s.MaxResultSizeChars, Interrupt: t.s.Interrupt,
		TooBigHint: ": pass large data through a file instead"}
}

func (t *customTool) IsConcurrencySafe(input json.RawMessage) bool {
	return t.s.IsConcurrencySafe != nil && t.s.IsConcurrencySafe(input)
}

// Subject: a custom tool's fields have no fixed names; its input shows when none
// of the usual ones is there.
func (t *customTool) Subject(input json.RawMessage) string {
	if s := t.Base.Subject(input); s != "" {
		return s
	}
	return compactPrefix(input)
}

// Summary is the usual fields' value, or the name alone.
func (t *customTool) Summary(input json.RawMessage) string {
	return Title(t.s.Name, Code(t.Base.Subject(input), false))
}

func (t *customTool) Run(ctx context.Context, call Call) (Output, error) { return t.s.Run(ctx, call) }
