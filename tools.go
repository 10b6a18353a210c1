package toolpipe

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/tool"
)

// ToolSpec describes a tool. NewTool checks it.
type ToolSpec struct {
	// Name is what the model calls the tool: 1-64 letters, digits, '_' or '-', not a
	// built-in tool's name and not starting with "mcp__".
	Name string
	// Description tells the model what the tool does and when to use it.
	Description string
	// InputSchema is the JSON Schema of the input, an object schema without external
	// references. Inputs that fail it get Claude Code's InputValidationError.
	InputSchema json.RawMessage
	// IsConcurrencySafe says whether a call with this input may run beside other
	// safe calls; safe calls are also retried when their worker is lost. It runs in
	// workflow code on every worker and replay: it must be pure and deterministic
	// (no clock, no I/O, no randomness). It sees only inputs that passed the schema.
	// nil means never safe: each call runs alone and at most once.
	IsConcurrencySafe func(input json.RawMessage) bool
	// Interrupt is InterruptCancel or InterruptBlock (the default).
	Interrupt Interrupt
	// MaxResultSizeChars is the largest result returned inline; a larger one is
	// written to the session's tool-results directory and the model gets a preview
	// and the path. 0 means 100,000; toolpipe caps every threshold at 50,000.
	MaxResultSizeChars int
	// Run runs one call. Its context is cancelled when the call is (an interrupt,
	// a failing sibling Bash, the turn's end); while it runs the activity heartbeats.
	// A Result with IsError is a tool error the model sees; a returned error is a
	// failure of the call, retried when the call is safe and reported to the model
	// as "Error: …" when retries are spent.
	Run func(ctx context.Context, call Call) (Result, error)
}

// Call is one call of a tool.
type Call struct {
	// ID is the tool_use id.
	ID string
	// SessionID is the session the call belongs to (its persisted results live
	// under it).
	SessionID string
	// Workdir is the session's working directory.
	Workdir string
	// Input is the call's input; it passed the tool's schema.
	Input json.RawMessage
}

// Result is what the model gets back.
type Result struct {
	Content string
	IsError bool
}

// Tool is a checked ToolSpec, ready to Register.
type Tool struct {
	t   tool.Tool
	def *tool.Definition
}

// NewTool checks a spec: the error says what is wrong and how to fix it.
func NewTool(s ToolSpec) (*Tool, error) {
	if _, builtin := activities.Builtins().Lookup(s.Name); builtin {
		return nil, fmt.Errorf("tool name %q is a built-in tool's; pick another name", s.Name)
	}
	if contract.ReservedName(s.Name) {
		return nil, fmt.Errorf("tool name %q is the name of one of toolpipe's activities (or starts with the SDK's reserved %q); a custom tool's activity is registered under its name: pick another name", s.Name, "__temporal")
	}
	var run func(context.Context, tool.Call) (tool.Output, error)
	if s.Run != nil { // nil stays nil: NewCustom says what to do
		run = func(ctx context.Context, c tool.Call) (tool.Output, error) {
			r, err := s.Run(ctx, Call{ID: c.ToolUseID, SessionID: c.SessionID, Workdir: c.Workdir, Input: c.Input})
			if err != nil {
				return tool.Output{}, err
			}
			return tool.Output{Content: r.Content, IsError: r.IsError}, nil
		}
	}
	t, err := tool.NewCustom(tool.CustomSpec{
		Name: s.Name, Description: s.Description, InputSchema: s.InputSchema,
		MaxResultSizeChars: s.MaxResultSizeChars, Interrupt: tool.InterruptBehavior(s.Interrupt), IsConcurrencySafe: s.IsConcurrencySafe,
		Run: run,
	})
	if err != nil {
		return nil, err
	}
	return &Tool{t: t, def: tool.MustCompile(t)}, nil
}

// MustTool is NewTool for package-level tools: it panics on a bad spec.
func MustTool(s ToolSpec) *Tool {
	t, err := NewTool(s)
	if err != nil {
		panic("toolpipe: " + err.Error())
	}
	return t
}

// Name is the tool's name.
func (t *Tool) Name() string { return t.def.Name() }

// ValidateInput checks an input as a turn does before running a call: the schema,
// then the size bound. The error's text is what the model would read.
func (t *Tool) ValidateInput(input json.RawMessage) error { return t.def.ValidateInput(input) }

// IsConcurrencySafe is the turn's decision for an input: false when the input is
// invalid or the spec's function says so (or panics).
func (t *Tool) IsConcurrencySafe(input json.RawMessage) bool { return t.def.IsConcurrencySafe(input) }

// BuiltinTools lists toolpipe's own tools (Bash, Read, Write, Edit, Glob, Grep,
// WebFetch, …): names a custom tool cannot take.
func BuiltinTools() []string { return activities.Builtins().Names() }
