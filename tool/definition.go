package tool

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// InterruptBehavior says what happens to an executing tool when the user sends a new
// message: "cancel" stops it, "block" lets it finish while the message waits.
type InterruptBehavior string

// The interrupt behaviours of DESIGN §3.7.
const (
	InterruptCancel InterruptBehavior = "cancel"
	InterruptBlock  InterruptBehavior = "block"
)

// Unlimited is the maxResultSizeChars of a tool whose results are never persisted
// (Read: persisting a Read result would make the model Read the persisted file).
const Unlimited = math.MaxInt

// Definition is a Tool compiled for use: its schema compiled, its limits and
// defaults resolved. A Registry holds one per tool; a turn also makes them for its
// MCP tools. Its methods are pure so workflow code can call them.
type Definition struct {
	tool Tool
	spec Spec

	schema *jsonschema.Schema
	// order is the schema's declared parameter order; params are its typed
	// parameters ("integer", "number", "boolean") when the tool coerces inputs.
	order   []string
	params  map[string]string
	roundUp map[string]bool
	api     APITool
}

// Compile checks a tool's spec and compiles its schema. The errors say what is
// wrong with the spec and how to fix it.
func Compile(t Tool) (*Definition, error) {
	s := t.Spec()
	if s.Name == "" {
		return nil, fmt.Errorf("tool: a tool has no name")
	}
	schema, err := compileSchema(s.Name, s.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("tool %s: InputSchema does not compile: %v", s.Name, err)
	}
	switch {
	case s.MaxResultSizeChars < 0:
		return nil, fmt.Errorf("tool %s: MaxResultSizeChars is %d; give a positive number of characters", s.Name, s.MaxResultSizeChars)
	case s.Interrupt != "" && s.Interrupt != InterruptBlock && s.Interrupt != InterruptCancel:
		return nil, fmt.Errorf("tool %s: Interrupt is %q; use %q or %q", s.Name, s.Interrupt, InterruptCancel, InterruptBlock)
	}
	return build(t, s, schema), nil
}

// build makes the definition of a tool whose spec is checked and schema compiled.
func build(t Tool, s Spec, schema *jsonschema.Schema) *Definition {
	if s.MaxResultSizeChars == 0 {
		s.MaxResultSizeChars = DefaultMaxResultSizeChars
	}
	if s.MaxInputBytes <= 0 || s.MaxInputBytes > MaxBlockInputBytes {
		s.MaxInputBytes = MaxBlockInputBytes
	}
	if s.Interrupt == "" {
		s.Interrupt = InterruptBlock
	}
	d := &Definition{tool: t, spec: s, schema: schema, order: propertyOrder(s.InputSchema)}
	if s.Coerce {
		d.params = propertyType(s.InputSchema)
		d.roundUp = map[string]bool{}
		for _, p := range s.RoundUp {
			d.roundUp[p] = true
		}
	}
	d.api = APITool{Name: s.Name, Description: s.Description, InputSchema: json.RawMessage(s.InputSchema)}
	if !s.Builtin {
		// A program's schema is sent as encoding/json writes it (compact, HTML
		// escaped): its Fingerprint, recorded in turns, is computed from these bytes.
		if b, err := json.Marshal(json.RawMessage(s.InputSchema)); err == nil {
			d.api.InputSchema = b
		}
	}
	return d
}

// MustCompile is Compile for toolpipe's own tools, whose specs are constants: it
// panics on an error.
func MustCompile(t Tool) *Definition {
	d, err := Compile(t)
	if err != nil {
		panic(err)
	}
	return d
}

// Tool is the tool the definition was compiled from.
func (d *Definition) Tool() Tool { return d.tool }

// Name is the tool's name.
func (d *Definition) Name() string { return d.spec.Name }

// IsBuiltin says the tool is one of toolpipe's own (Spec.Builtin).
func (d *Definition) IsBuiltin() bool { return d.spec.Builtin }

// MaxResultSizeChars is the declared persistence threshold (Unlimited exempts).
func (d *Definition) MaxResultSizeChars() int { return d.spec.MaxResultSizeChars }

// MaxInputBytes bounds the raw input.
func (d *Definition) MaxInputBytes() int { return d.spec.MaxInputBytes }

// CancelsSiblings says an error result of a call that ran cancels its siblings.
func (d *Definition) CancelsSiblings() bool { return d.spec.CancelsSiblings }

// Searches says the tool's calls search directory trees (Spec.Searches).
func (d *Definition) Searches() bool { return d.spec.Searches }

// InSession says the turn's session answers the tool's calls (Spec.InSession).
func (d *Definition) InSession() bool { return d.spec.InSession }

// APITool is the tool as the Messages API's tools parameter describes it.
func (d *Definition) APITool() APITool { return d.api }

// InputValidationError is the error-result prefix of DESIGN §3.8 for inputs that fail
// the schema.
const InputValidationError = "InputValidationError"

// ValidateInput runs the schema and the tool's own checks, and returns an error whose
// text is fit for the model, in Claude Code's words: a schema failure is
// "InputValidationError: Read failed due to the following issue:\n…", a failed
// tool-specific check is its message alone. Callers wrap it with UseError.
func (d *Definition) ValidateInput(input json.RawMessage) error {
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	if len(input) > d.spec.MaxInputBytes {
		return d.tooLarge(len(input)) // oversize.go
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(input))
	if err != nil {
		return fmt.Errorf("%s: input is not valid JSON: %v", InputValidationError, err)
	}
	if err := d.schema.Validate(v); err != nil {
		// Parameters the schema lacks are listed in the order the model wrote them.
		order := append(slices.Clone(d.order), keyOrder(input)...)
		return fmt.Errorf("%s: %s", InputValidationError, issuesMessage(d.spec.Name, schemaIssues(err, v, order)))
	}
	if hasNUL(v) {
		// No command, path or pattern can hold a NUL: the OS would cut or refuse it.
		return fmt.Errorf("%s: the input contains a NUL character (\\u0000), which no command, path or pattern can hold", InputValidationError)
	}
	return d.tool.CheckInput(input)
}

// ValidateRepaired is ValidateInput for an input Repair returned, as turns check
// inputs since they repair them: the tool's PreCheck first, and it also refuses an
// integer parameter whose value is beyond 2^53-1, which Claude Code's integers
// (and the tools' Go types) cannot hold, in Claude Code's words.
func (d *Definition) ValidateRepaired(input json.RawMessage) error {
	if err := d.tool.PreCheck(input); err != nil {
		return err
	}
	if err := d.ValidateInput(input); err != nil {
		return err
	}
	var issues []issue
	for _, name := range d.unsafeIntegers(input) {
		issues = append(issues, issue{rank: 1, param: name,
			text: fmt.Sprintf("The parameter `%s` type is expected as `int` but provided as `number`", name)})
	}
	if len(issues) > 0 {
		return fmt.Errorf("%s: %s", InputValidationError, issuesMessage(d.spec.Name, issues))
	}
	return nil
}

// UseError wraps an error that stopped a call before it ran (an unknown tool, an
// input that failed validation) as Claude Code does, so the model can tell it from
// an error of the tool itself.
func UseError(msg string) string { return "<tool_use_error>" + msg + "</tool_use_error>" }

// IsConcurrencySafe decides whether a call may run beside others. It fails closed: an
// input that fails validation, or a tool that panics, is not safe. A built-in tool
// is asked first, so that a 10 MB Write is not validated to learn that it is unsafe;
// a program's own tool is asked only about a valid input.
func (d *Definition) IsConcurrencySafe(input json.RawMessage) (safe bool) {
	defer func() {
		if recover() != nil {
			safe = false
		}
	}()
	if len(input) > d.spec.MaxInputBytes {
		return false
	}
	if d.spec.Builtin {
		return d.tool.IsConcurrencySafe(input) && d.ValidateInput(input) == nil
	}
	return d.ValidateInput(input) == nil && d.tool.IsConcurrencySafe(input)
}

// InterruptBehavior returns what an interrupt does to a running call of this tool.
func (d *Definition) InterruptBehavior() InterruptBehavior { return d.spec.Interrupt }

// Retryable reports whether a call may be run again after its worker was lost: only
// calls that cannot have side effects.
func (d *Definition) Retryable(input json.RawMessage) bool {
	return d.IsConcurrencySafe(input)
}

// Timeout is how long a call of input may run.
func (d *Definition) Timeout(input json.RawMessage) time.Duration {
	if t := d.tool.Timeout(input); t > 0 {
		return t
	}
	return DefaultTimeout
}

// Access is what the permission check sees of a call (Tool.Access), its kind
// resolved.
func (d *Definition) Access(input json.RawMessage) Access {
	a := d.tool.Access(input)
	if a.Kind == "" {
		a = Access{Kind: AccessOther, ReadOnly: d.IsConcurrencySafe(input)}
	}
	return a
}

// HookInput is the tool_input hooks read.
func (d *Definition) HookInput(input json.RawMessage) json.RawMessage {
	if in := d.tool.HookInput(input); in != nil {
		return in
	}
	return input
}

// HookResponse is the tool_response of a call whose Output carried none, as JSON.
func (d *Definition) HookResponse(input json.RawMessage, content string) json.RawMessage {
	var resp any = content
	if r := d.tool.HookResponse(input, content); r != nil {
		resp = r
	}
	b, _ := json.Marshal(resp) // fixed types and sorted map keys: deterministic
	return b
}

// Run runs one call (on a worker, in its activity).
func (d *Definition) Run(ctx context.Context, call Call) (Output, error) {
	return d.tool.Run(ctx, call)
}

// Fingerprint identifies the contract of a program's own tool as workflows see it:
// its name, description, schema, threshold and interrupt behaviour (not its
// functions). A built-in tool's is its name alone: its contract is the binary's.
func (d *Definition) Fingerprint() string {
	h := sha256.New()
	if d.spec.Builtin {
		fmt.Fprintf(h, "builtin\x00%s", d.spec.Name)
	} else {
		fmt.Fprintf(h, "%s\x00%d\x00%s\x00", d.spec.Name, d.spec.MaxResultSizeChars, d.spec.Interrupt)
		fmt.Fprintf(h, "%s\x00%s", d.spec.Description, d.api.InputSchema)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// propertyType maps the top-level properties of a JSON schema to their "type",
// where it is one string.
func propertyType(schema string) map[string]string {
	var doc struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	_ = json.Unmarshal([]byte(schema), &doc)
	out := map[string]string{}
	for name, p := range doc.Properties {
		if t, ok := p.Type.(string); ok {
			out[name] = t
		}
	}
	return out
}

// hasNUL reports whether any string in a decoded JSON value holds a NUL.
func hasNUL(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.IndexByte(x, 0) >= 0
	case []any:
		for _, e := range x {
			if hasNUL(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if hasNUL(k) || hasNUL(e) {
				return true
			}
		}
	}
	return false
}
