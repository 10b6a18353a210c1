package tool

import (
	"fmt"
	"regexp"
	"slices"
)

// Registry is the tools a worker offers and runs: toolpipe's built-in tools and a
// program's own, each once, all through the same Tool interface. It is built when
// the worker is set up and never changes after: workflow code reads it while it
// schedules (the worker hands it to the workflows when it registers them), so
// every worker of a task queue must be set up with the same tools. There is no
// process-wide registry: two workers of one process may hold different ones.
type Registry struct {
	defs  map[string]*Definition
	names []string
}

// toolNamePattern is what the Messages API accepts as a tool name.
var toolNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// NewRegistry compiles the tools into a registry. Names must be unique, usable by
// the Messages API and not MCP names (mcp__…, which a turn's MCP servers own).
func NewRegistry(tools ...Tool) (*Registry, error) {
	return (&Registry{}).With(tools...)
}

// MustRegistry is NewRegistry for tools whose specs are constants.
func MustRegistry(tools ...Tool) *Registry {
	r, err := NewRegistry(tools...)
	if err != nil {
		panic(err)
	}
	return r
}

// With returns a registry of r's tools and more; r does not change. A name r
// already has is refused (a program's tool cannot replace a built-in one).
func (r *Registry) With(tools ...Tool) (*Registry, error) {
	out := &Registry{defs: map[string]*Definition{}}
	for n, d := range r.all() {
		out.defs[n] = d
	}
	for _, t := range tools {
		if t == nil {
			return nil, fmt.Errorf("tool: a nil tool")
		}
		d, err := Compile(t)
		if err != nil {
			return nil, err
		}
		name := d.Name()
		switch old, taken := out.defs[name]; {
		case IsMCPName(name):
			return nil, fmt.Errorf("tool name %q starts with %q, which names MCP servers' tools; pick another name", name, MCPPrefix)
		case !toolNamePattern.MatchString(name):
			return nil, fmt.Errorf("tool name %q is not 1-64 letters, digits, '_' or '-' (what the Messages API accepts)", name)
		case taken && old.IsBuiltin():
			return nil, fmt.Errorf("tool name %q is a built-in tool's; pick another name", name)
		case taken:
			return nil, fmt.Errorf("tool %q is given twice; give each tool once", name)
		}
		out.defs[name] = d
	}
	for n := range out.defs {
		out.names = append(out.names, n)
	}
	slices.Sort(out.names)
	return out, nil
}

func (r *Registry) all() map[string]*Definition {
	if r == nil {
		return nil
	}
	return r.defs
}

// Lookup finds a tool by its exact (case-sensitive) name.
func (r *Registry) Lookup(name string) (*Definition, bool) {
	d, ok := r.all()[name]
	return d, ok
}

// Names lists the tools, sorted.
func (r *Registry) Names() []string {
	if r == nil {
		return nil
	}
	return slices.Clone(r.names)
}

// APITools lists every tool for the model, sorted by name, so that the request
// (and the provider's prompt cache) is the same on every call.
func (r *Registry) APITools() []APITool {
	out := make([]APITool, 0, len(r.Names()))
	for _, n := range r.Names() {
		out = append(out, r.defs[n].APITool())
	}
	return out
}

// APIToolsWithMCP is APITools followed by the MCP tools, in the order given (a
// listing sorts them by name, so requests stay identical for the prompt cache).
func (r *Registry) APIToolsWithMCP(specs []MCPSpec) []APITool {
	out := r.APITools()
	for _, s := range specs {
		out = append(out, s.APITool())
	}
	return out
}

// UnknownToolMessage is the result of a call of name, which r does not have
// (unknown.go).
func (r *Registry) UnknownToolMessage(name string) string {
	return UnknownToolMessage(name, r.Names())
}

// Describe names a call for people (Definition.Describe), or by the fields tools
// name their main argument by when r does not have its tool.
func (r *Registry) Describe(b Block) string {
	if d, ok := r.Lookup(b.Name); ok {
		return d.Describe(b.Input)
	}
	return Describe(b)
}
