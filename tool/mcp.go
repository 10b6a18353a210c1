package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// MCPPrefix starts the name of every MCP tool: mcp__<server>__<tool>, as in Claude
// Code, so permission rules and hook matchers written for Claude Code apply as is.
const MCPPrefix = "mcp__"

// MCPMaxResultSizeChars is the declared persistence threshold of MCP tools (Claude
// Code's); the global cap of DESIGN §4 still applies below it.
const MCPMaxResultSizeChars = 100_000

// MCPDescriptionMaxChars bounds a tool description a server sends, as Claude Code
// does: a server must not fill the model's context with one tool's prose.
const MCPDescriptionMaxChars = 2048

// MCPName is the model-facing name of an MCP server's tool. Characters the Messages
// API does not allow in tool names become '_', as Claude Code normalises them.
func MCPName(server, tool string) string {
	return MCPPrefix + NormalizeMCPName(server) + "__" + NormalizeMCPName(tool)
}

// NormalizeMCPName replaces every character outside [A-Za-z0-9_-] with '_'.
func NormalizeMCPName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') {
			return r
		}
		return '_'
	}, s)
}

// IsMCPName reports whether name is an MCP tool's name (it may still be unknown).
func IsMCPName(name string) bool { return strings.HasPrefix(name, MCPPrefix) }

// ParseMCPName splits mcp__<server>__<tool> at the first "__" after the prefix, as
// Claude Code does; server names therefore cannot contain "__".
func ParseMCPName(name string) (server, tool string, ok bool) {
	if !IsMCPName(name) {
		return "", "", false
	}
	server, tool, ok = strings.Cut(name[len(MCPPrefix):], "__")
	if !ok || server == "" || tool == "" {
		return "", "", false
	}
	return server, tool, true
}

// MCPFailure is an MCP server that could not be listed: its name and why, with
// secrets redacted. It travels in workflow payloads beside MCPSpec, so the
// workflows tell the model about it without importing the MCP client (mcptools).
type MCPFailure struct {
	Server string `json:"server"`
	Error  string `json:"error"`
}

// MCPSpec is an MCP tool as a server listed it, in a form that travels in workflow
// payloads: the Turn builds its Definition from it in workflow code, and a Session
// hands it to the model as an APITool.
type MCPSpec struct {
	// Name is the full name, mcp__<server>__<tool>.
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// InputSchema is the JSON Schema of the tool's arguments; empty means any object.
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
	// ReadOnly is the tool's readOnlyHint annotation: its calls run beside other
	// read-only calls, are retried after a lost worker and stop on an interrupt.
	ReadOnly bool `json:"read_only,omitempty"`
}

// emptyObjectSchema is the schema of a tool that declared none.
const emptyObjectSchema = `{"type":"object"}`

// Definition compiles the spec into a tool definition. It is pure and deterministic,
// so workflow code may call it; it fails when the name is not an MCP name or the
// schema does not compile.
func (s MCPSpec) Definition() (*Definition, error) {
	if _, _, ok := ParseMCPName(s.Name); !ok {
		return nil, fmt.Errorf("MCP tool name %q is not of the form mcp__SERVER__TOOL", s.Name)
	}
	schema, err := compileSchema(s.Name, s.schemaText())
	if err != nil {
		return nil, fmt.Errorf("MCP tool %s: input schema: %w", s.Name, err)
	}
	t := mcpTool{s: s}
	return build(t, t.Spec(), schema), nil
}

// mcpTool is an MCP server's tool as a turn sees it. Its calls run as the one
// MCPCall activity (workflows), never through Run.
type mcpTool struct {
	Base
	s MCPSpec
}

func (t mcpTool) Spec() Spec {
	sp := Spec{Name: t.s.Name, Description: t.s.Description, InputSchema: t.s.schemaText(),
		MaxResultSizeChars: MCPMaxResultSizeChars, Interrupt: InterruptBlock}
	if t.s.ReadOnly {
		sp.Interrupt = InterruptCancel
	}
	return sp
}

func (t mcpTool) IsConcurrencySafe(json.RawMessage) bool { return t.s.ReadOnly }

// Subject: an MCP tool's fields have no fixed names; its input shows when none of
// the usual ones is there.
func (t mcpTool) Subject(input json.RawMessage) string {
	if s := t.Base.Subject(input); s != "" {
		return s
	}
	return compactPrefix(input)
}

// Summary: its whole input.
func (t mcpTool) Summary(input json.RawMessage) string {
	return Title(t.s.Name, Code(CompactJSON(input), false))
}

func (t mcpTool) Run(context.Context, Call) (Output, error) {
	return Output{}, fmt.Errorf("tool %s: MCP calls run as the MCPCall activity", t.s.Name)
}

// APITool describes the tool to the model.
func (s MCPSpec) APITool() APITool {
	return APITool{Name: s.Name, Description: s.Description, InputSchema: json.RawMessage(s.schemaText())}
}

func (s MCPSpec) schemaText() string {
	if len(s.InputSchema) == 0 || string(s.InputSchema) == "null" {
		return emptyObjectSchema
	}
	return string(s.InputSchema)
}

// compileSchema compiles a schema that comes from outside (an MCP server). The
// compiler loads no remote documents, so a schema cannot make workflow code do I/O.
func compileSchema(name, text string) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	url := "toolpipe:///mcp/" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// noLoader refuses every external reference.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external schema %s is not loaded", url)
}
