package tool

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sync"
)

// DefaultCustomMaxResultSizeChars is a custom tool's threshold when its spec gives
// none: the value of the built-in tools that do not limit themselves (the global cap
// of DESIGN §4.1 still applies below it).
const DefaultCustomMaxResultSizeChars = 100_000

// toolNamePattern is what the Messages API accepts as a tool name.
var toolNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// CustomSpec describes a tool that a program embedding toolpipe adds beside the
// built-in ones. NewCustom checks it and compiles it into a Definition.
type CustomSpec struct {
	// Name is the name the model calls the tool by.
	Name string
	// Description tells the model what the tool does and when to use it.
	Description string
	// InputSchema is the JSON Schema of the input: an object schema, with no
	// external references.
	InputSchema json.RawMessage
	// MaxResultSizeChars is the largest result returned inline; larger ones are
	// persisted and previewed (DESIGN §4). 0 means DefaultCustomMaxResultSizeChars.
	MaxResultSizeChars int
	// Interrupt is what a user's new message does to a running call; empty means
	// InterruptBlock.
	Interrupt InterruptBehavior
	// IsConcurrencySafe says whether a call with this (validated) input may run
	// beside other safe calls, and be retried after its worker was lost. Workflow
	// code calls it: it must be pure and deterministic. nil means never safe.
	IsConcurrencySafe func(input json.RawMessage) bool
}

// NewCustom checks a custom tool's spec and compiles its schema. The errors say what
// is wrong with the spec and how to fix it.
func NewCustom(s CustomSpec) (*Definition, error) {
	if err := checkCustomName(s.Name); err != nil {
		return nil, err
	}
	if s.Description == "" {
		return nil, fmt.Errorf("tool %s: Description is empty; the model picks tools by their description", s.Name)
	}
	if len(s.InputSchema) == 0 {
		return nil, fmt.Errorf("tool %s: InputSchema is empty; give a JSON Schema such as {\"type\":\"object\",\"properties\":{…}}", s.Name)
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
	schema, err := compileSchema(s.Name, string(s.InputSchema))
	if err != nil {
		return nil, fmt.Errorf("tool %s: InputSchema does not compile: %v", s.Name, err)
	}
	max := s.MaxResultSizeChars
	switch {
	case max == 0:
		max = DefaultCustomMaxResultSizeChars
	case max < 0 || max == Unlimited:
		return nil, fmt.Errorf("tool %s: MaxResultSizeChars is %d; give a positive number of characters (0 for %d)",
			s.Name, max, DefaultCustomMaxResultSizeChars)
	}
	interrupt := s.Interrupt
	switch interrupt {
	case "":
		interrupt = InterruptBlock
	case InterruptBlock, InterruptCancel:
	default:
		return nil, fmt.Errorf("tool %s: Interrupt is %q; use %q or %q", s.Name, interrupt, InterruptCancel, InterruptBlock)
	}
	var compact json.RawMessage
	if b, err := json.Marshal(s.InputSchema); err == nil {
		compact = b
	}
	return &Definition{
		Name: s.Name, MaxResultSizeChars: max, Interrupt: interrupt, ReadOnly: s.IsConcurrencySafe,
		// Custom inputs are bounded like the built-ins' short ones, so that a
		// workflow task never parses megabytes (see Definition.MaxInputBytes).
		MaxInputBytes: maxContentInputBytes, tooBigHint: ": pass large data through a file instead",
		schema: schema, custom: &customInfo{description: s.Description, schema: compact},
	}, nil
}

// customInfo is what only custom tools carry: the model-facing description and schema
// (the built-ins' live in api.go).
type customInfo struct {
	description string
	schema      json.RawMessage
}

// Fingerprint identifies a custom tool's contract as workflows see it: its name,
// description, schema, threshold and interrupt behaviour (not its functions).
func (d *Definition) Fingerprint() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%s\x00", d.Name, d.MaxResultSizeChars, d.InterruptBehavior())
	if d.custom != nil {
		fmt.Fprintf(h, "%s\x00%s", d.custom.description, d.custom.schema)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func checkCustomName(name string) error {
	switch {
	case IsMCPName(name):
		return fmt.Errorf("tool name %q starts with %q, which names MCP servers' tools; pick another name", name, MCPPrefix)
	case !toolNamePattern.MatchString(name):
		return fmt.Errorf("tool name %q is not 1-64 letters, digits, '_' or '-' (what the Messages API accepts)", name)
	}
	if _, ok := registry[name]; ok {
		return fmt.Errorf("tool name %q is a built-in tool's; pick another name", name)
	}
	return nil
}

// customs holds the custom tools of this process. The workflows consult it while they
// schedule, so it is process-wide: every worker of the process sees the same tools.
var customs = struct {
	sync.RWMutex
	m map[string]*Definition
}{m: map[string]*Definition{}}

// Register adds a custom tool to this process's registry. Registering the same
// definition again is a no-op; another definition under a taken name is refused.
func Register(d *Definition) error {
	if d == nil || d.custom == nil {
		return fmt.Errorf("tool: Register takes a definition made by NewCustom")
	}
	if err := checkCustomName(d.Name); err != nil {
		return err
	}
	customs.Lock()
	defer customs.Unlock()
	if old, ok := customs.m[d.Name]; ok && old != d {
		if old.Fingerprint() == d.Fingerprint() {
			return nil // the same contract, defined twice (two workers of one program)
		}
		return fmt.Errorf("tool %q is already registered with another definition; register each tool once per process", d.Name)
	}
	customs.m[d.Name] = d
	return nil
}

// lookupCustom finds a registered custom tool.
func lookupCustom(name string) (*Definition, bool) {
	customs.RLock()
	defer customs.RUnlock()
	d, ok := customs.m[name]
	return d, ok
}

// IsBuiltin reports whether name is one of toolpipe's own tools.
func IsBuiltin(name string) bool {
	_, ok := registry[name]
	return ok
}

// CustomNames lists the registered custom tools, sorted.
func CustomNames() []string {
	customs.RLock()
	defer customs.RUnlock()
	names := make([]string, 0, len(customs.m))
	for n := range customs.m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// customAPITools describes the custom tools to the model, sorted by name.
func customAPITools() []APITool {
	var out []APITool
	for _, n := range CustomNames() {
		d, _ := lookupCustom(n)
		out = append(out, APITool{Name: n, Description: d.custom.description, InputSchema: d.custom.schema})
	}
	return out
}
