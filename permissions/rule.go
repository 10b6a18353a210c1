package permissions

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolpipe/toolpipe/tool"
)

// ErrUnknownTool is wrapped by the error ParseRule returns for a rule that
// names a tool toolpipe does not have (Task, NotebookEdit, WebSearch, ...).
// Settings written for Claude Code often contain such rules; a loader can
// test for it with errors.Is and skip the rule with a warning instead of
// rejecting the whole file.
var ErrUnknownTool = errors.New("permissions: unknown tool")

// Tool names that rules may name, as in Claude Code: package tool's names, here
// under the names this package's callers already use.
const (
	ToolBash     = tool.BashName
	ToolRead     = tool.ReadName
	ToolEdit     = tool.EditName
	ToolWrite    = tool.WriteName
	ToolGlob     = tool.GlobName
	ToolGrep     = tool.GrepName
	ToolWebFetch = tool.WebFetchName
	mcpPrefix    = tool.MCPPrefix
)

// knownTools is a slice, not a map, so that error hints come out in a fixed
// order.
var knownTools = []string{ToolBash, ToolRead, ToolEdit, ToolWrite, ToolGlob, ToolGrep, ToolWebFetch}

// Rule is one parsed permission rule, `Tool` or `Tool(specifier)`. The zero
// Rule is not valid; make rules with ParseRule. Rules are comparable with ==,
// and two rules that match the same calls because one was normalised (such as
// Bash(*) and Bash) are equal.
type Rule struct {
	// Tool is the tool name as written: Bash, Read, ..., or an MCP name
	// mcp__server (every tool of that server) or mcp__server__tool.
	Tool string
	// Specifier is the normalised text between the parentheses, "" for a
	// rule that matches every call of Tool.
	Specifier string

	m matcher
}

// matcher is the compiled form of a specifier, kept in the Rule so that
// Decide does no parsing of rules.
type matcher struct {
	kind   matchKind
	text   string // Bash pattern or prefix, path glob, or host name
	anchor anchor // path rules only
}

type matchKind uint8

const (
	matchAll matchKind = iota // no specifier
	bashExact
	bashPrefix
	bashWildcard
	pathGlob
	domainExact
	domainSuffix // *.example.com: strict subdomains
	domainAny    // *
)

// String returns the rule in settings.json syntax; ParseRule(r.String())
// returns r again.
func (r Rule) String() string {
	if r.Specifier == "" {
		return r.Tool
	}
	return r.Tool + "(" + r.Specifier + ")"
}

// MarshalText writes the rule as its String, so that a Policy serialises to
// the same strings a settings file holds.
func (r Rule) MarshalText() ([]byte, error) {
	if r.Tool == "" {
		return nil, errors.New("permissions: cannot marshal the zero Rule")
	}
	return []byte(r.String()), nil
}

// UnmarshalText parses text as ParseRuleFor does, with every tool name known: a
// serialised rule (a turn's policy in its workflow input) was checked against the
// tools where it was loaded, and the worker decoding it may not know the loader's
// tools.
func (r *Rule) UnmarshalText(text []byte) error {
	parsed, err := ParseRuleFor(string(text), func(string) bool { return true })
	if err != nil {
		return err
	}
	*r = parsed
	return nil
}

// ParseRule parses one entry of permissions.allow, permissions.deny or
// permissions.ask. Parentheses inside the specifier must balance, because
// the rule ends at the last ')' and an unbalanced one almost always means a
// typo; a command with a lone parenthesis can still be matched with '*'.
//
// It knows the tools of Claude Code's rule vocabulary and MCP names; ParseRuleFor
// knows more.
func ParseRule(s string) (Rule, error) { return ParseRuleFor(s, nil) }

// ParseRuleFor is ParseRule that also takes a rule naming one of the tools known
// reports (a worker's registry: a program's own tools, later built-in ones), whole:
// without a specifier, as rules name MCP tools.
func ParseRuleFor(s string, known func(name string) bool) (Rule, error) {
	text := strings.TrimSpace(s)
	if text == "" {
		return Rule{}, errors.New("permissions: empty rule")
	}
	name, spec, hasSpec, err := splitRule(text)
	if err != nil {
		return Rule{}, err
	}
	if err := checkToolName(text, name); err != nil {
		return Rule{}, err
	}
	r := Rule{Tool: name}
	if hasSpec {
		if spec = strings.TrimSpace(spec); spec == "" {
			return Rule{}, ruleErr(text, "empty specifier; write %s alone to match every call", name)
		}
	}
	switch {
	case name == ToolBash:
		if hasSpec {
			r.Specifier, r.m, err = compileBash(spec)
		}
	case name == ToolRead || name == ToolEdit || name == ToolWrite || name == ToolGlob || name == ToolGrep:
		if hasSpec {
			r.m, err = compilePath(spec)
			r.Specifier = spec
		}
	case name == ToolWebFetch:
		if hasSpec {
			r.Specifier, r.m, err = compileDomain(spec)
		}
	case strings.HasPrefix(name, mcpPrefix):
		if hasSpec {
			return Rule{}, ruleErr(text, "MCP rules take no specifier; write %s or %s__TOOL", name, name)
		}
		r.Tool, err = normaliseMCP(name)
	case known != nil && known(name):
		if hasSpec {
			return Rule{}, ruleErr(text, "rules for the tool %s take no specifier; write %s", name, name)
		}
	default:
		return Rule{}, unknownTool(text, name)
	}
	if err != nil {
		return Rule{}, ruleErr(text, "%v", err)
	}
	return r, nil
}

// splitRule separates "Tool(spec)" into its parts and checks the parentheses.
func splitRule(text string) (name, spec string, hasSpec bool, err error) {
	open := strings.IndexByte(text, '(')
	if open < 0 {
		if strings.IndexByte(text, ')') >= 0 {
			return "", "", false, ruleErr(text, "unbalanced parentheses: ')' without '('")
		}
		return text, "", false, nil
	}
	if text[len(text)-1] != ')' {
		return "", "", false, ruleErr(text, "unbalanced parentheses: the rule must end with ')'")
	}
	spec = text[open+1 : len(text)-1]
	depth := 0
	for i := 0; i < len(spec); i++ {
		switch spec[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth < 0 {
				return "", "", false, ruleErr(text, "unbalanced parentheses: ')' at offset %d closes the rule early", open+1+i)
			}
		}
	}
	if depth != 0 {
		return "", "", false, ruleErr(text, "unbalanced parentheses: %d '(' not closed in the specifier", depth)
	}
	return text[:open], spec, true, nil
}

func checkToolName(text, name string) error {
	if name == "" {
		return ruleErr(text, "empty tool name")
	}
	check := name
	if strings.HasPrefix(name, mcpPrefix) {
		check = strings.TrimSuffix(name, "__*") // mcp__server__* names every tool of the server
	}
	for i := 0; i < len(check); i++ {
		c := check[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return ruleErr(text, "invalid tool name %q: only letters, digits, '_' and '-' are allowed", name)
		}
	}
	return nil
}

func unknownTool(text, name string) error {
	for _, t := range knownTools {
		if strings.EqualFold(t, name) {
			return fmt.Errorf("%w %q in rule %q: tool names are case-sensitive; did you mean %s?", ErrUnknownTool, name, text, t)
		}
	}
	return fmt.Errorf("%w %q in rule %q; known tools: %s, and mcp__SERVER or mcp__SERVER__TOOL",
		ErrUnknownTool, name, text, strings.Join(knownTools, ", "))
}

// normaliseMCP checks an MCP rule name and rewrites mcp__server__* to
// mcp__server, which Claude Code treats the same.
func normaliseMCP(name string) (string, error) {
	server, tool, hasTool := strings.Cut(name[len(mcpPrefix):], "__")
	switch {
	case server == "":
		return "", errors.New("empty MCP server name; write mcp__SERVER or mcp__SERVER__TOOL")
	case hasTool && tool == "":
		return "", errors.New("empty MCP tool name after the server; write mcp__SERVER to match all its tools")
	case hasTool && tool == "*":
		return mcpPrefix + server, nil
	case strings.Contains(name, "*"):
		return "", errors.New("'*' is only allowed as the whole tool name, mcp__SERVER__*")
	}
	return name, nil
}

func ruleErr(text, format string, args ...any) error {
	return fmt.Errorf("permissions: rule %q: %s", text, fmt.Sprintf(format, args...))
}
