package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

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

// Definition is one tool. Its methods are pure so workflow code can call them.
type Definition struct {
	// Name is the tool name the model uses (Claude Code's vocabulary).
	Name string
	// MaxResultSizeChars is the declared persistence threshold; Unlimited exempts.
	MaxResultSizeChars int
	// Interrupt is the behaviour on a user interrupt; empty means block.
	Interrupt InterruptBehavior
	// ReadOnly says whether a call can be retried after a lost worker; nil means never.
	ReadOnly func(input json.RawMessage) bool
	// Check runs the tool-specific checks of validateInput after the schema passed.
	Check func(input json.RawMessage) error
	// MaxInputBytes bounds the raw JSON input (0: no bound). Workflow code parses
	// inputs several times in one workflow task, and a task that runs past a second
	// is killed by the SDK's deadlock detector and retried forever: a 10 MB Bash
	// command or path must fail fast with a clear error instead.
	MaxInputBytes int

	schema *jsonschema.Schema
	// custom is set on tools a program added (custom.go): their description and
	// schema for the model.
	custom *customInfo
	// tooBigHint ends the MaxInputBytes error: what to do instead.
	tooBigHint string

	// Repair's parts (repair.go), set for built-in tools only: the schema's typed
	// parameters ("integer", "number", "boolean"), the tool's repair of parameter
	// names, whether that repair counts only when it makes the input valid, and the
	// integer parameters whose fractions are rounded up.
	params        map[string]string
	repair        repairer
	repairIfValid bool
	roundUp       map[string]bool
	// preCheck runs before the schema in ValidateRepaired: a check Claude Code
	// words otherwise than a schema failure (Grep's head_limit and offset).
	preCheck func(input json.RawMessage) error
}

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
	if d.MaxInputBytes > 0 && len(input) > d.MaxInputBytes {
		return d.tooLarge(len(input)) // oversize.go
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(input))
	if err != nil {
		return fmt.Errorf("%s: input is not valid JSON: %v", InputValidationError, err)
	}
	if err := d.schema.Validate(v); err != nil {
		// Parameters the schema lacks are listed in the order the model wrote them.
		order := append(slices.Clone(propertyOrders[d.schema]), keyOrder(input)...)
		return fmt.Errorf("%s: %s", InputValidationError, issuesMessage(d.Name, schemaIssues(err, v, order)))
	}
	if hasNUL(v) {
		// No command, path or pattern can hold a NUL: the OS would cut or refuse it.
		return fmt.Errorf("%s: the input contains a NUL character (\\u0000), which no command, path or pattern can hold", InputValidationError)
	}
	if d.Check != nil {
		if err := d.Check(input); err != nil {
			return err
		}
	}
	return nil
}

// ValidateRepaired is ValidateInput for an input Repair returned, as turns check
// inputs since they repair them: it also refuses an integer parameter whose value
// is beyond 2^53-1, which Claude Code's integers (and the tools' Go types) cannot
// hold, in Claude Code's words.
func (d *Definition) ValidateRepaired(input json.RawMessage) error {
	if d.preCheck != nil {
		if err := d.preCheck(input); err != nil {
			return err
		}
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
		return fmt.Errorf("%s: %s", InputValidationError, issuesMessage(d.Name, issues))
	}
	return nil
}

// UseError wraps an error that stopped a call before it ran (an unknown tool, an
// input that failed validation) as Claude Code does, so the model can tell it from
// an error of the tool itself.
func UseError(msg string) string { return "<tool_use_error>" + msg + "</tool_use_error>" }

// IsConcurrencySafe decides whether a call may run beside others. It fails closed: an
// input that fails validation, or a check that panics, is not safe.
func (d *Definition) IsConcurrencySafe(input json.RawMessage) (safe bool) {
	defer func() {
		if recover() != nil {
			safe = false
		}
	}()
	// ReadOnly first: validating a 10 MB Write to learn it is unsafe costs the
	// workflow task time for nothing.
	if d.ReadOnly == nil || d.ValidateInput(input) != nil {
		return false
	}
	return d.ReadOnly(input)
}

// InterruptBehavior returns what an interrupt does to a running call of this tool.
func (d *Definition) InterruptBehavior() InterruptBehavior {
	if d.Interrupt == "" {
		return InterruptBlock
	}
	return d.Interrupt
}

// Retryable reports whether a call may be run again after its worker was lost: only
// calls that cannot have side effects.
func (d *Definition) Retryable(input json.RawMessage) bool {
	return d.IsConcurrencySafe(input)
}

// propertyOrders holds each built-in schema's declared parameter order, and
// propertyTypes each parameter's JSON type, written once at start by mustCompile
// and only read after.
var (
	propertyOrders = map[*jsonschema.Schema][]string{}
	propertyTypes  = map[*jsonschema.Schema]map[string]string{}
)

func mustCompile(name, schema string) *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		panic(fmt.Sprintf("tool %s: schema is not JSON: %v", name, err))
	}
	c := jsonschema.NewCompiler()
	url := "toolpipe:///" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		panic(fmt.Sprintf("tool %s: %v", name, err))
	}
	s, err := c.Compile(url)
	if err != nil {
		panic(fmt.Sprintf("tool %s: schema does not compile: %v", name, err))
	}
	propertyOrders[s] = propertyOrder(schema)
	propertyTypes[s] = propertyType(schema)
	return s
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
