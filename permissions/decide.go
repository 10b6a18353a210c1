package permissions

import (
	"fmt"
	"strings"

	"github.com/toolpipe/toolpipe/tool"
)

// Request is one tool call as Decide needs to see it.
type Request struct {
	// Tool is the tool's name: Bash, Read, Edit, Write, Glob, Grep,
	// WebFetch, mcp__server__tool, or another tool's name.
	Tool string
	// Kind is which rules beside Tool's own apply (tool.Access.Kind): a tool
	// that reads files is judged as Read is, one that changes them as Edit;
	// "" takes the kind of the built-in tool named Tool.
	Kind tool.AccessKind
	// Command is the Bash command.
	Command string
	// Paths are the files or directories a file tool touches, absolute,
	// with ".." and symbolic links already resolved by the caller. Include
	// both a symbolic link and its target: a deny rule matching either
	// denies, and every path must be allowed. Empty means the working
	// directory (Glob and Grep without a path). For Glob, pass the directory
	// its pattern's fixed prefix reaches (path + "../../x/*" reaches
	// path/../../x), not only the path field.
	Paths []string
	// URL is the WebFetch URL.
	URL string
	// ReadOnly says the call only reads, as the caller judged it: for Bash
	// from readonly.IsReadOnly, for MCP tools from their readOnlyHint. A
	// read-only Bash command is allowed in every mode unless a deny or ask
	// rule matches it; in plan mode only read-only calls may run.
	ReadOnly bool
}

// Policy is the merged permission settings of a session.
type Policy struct {
	// Allow, Deny and Ask are permissions.allow, .deny and .ask.
	Allow, Deny, Ask []Rule
	// Mode is permissions.defaultMode or the mode the session runs in.
	Mode Mode
	// ProjectDir is the project root, the anchor of /path rules; when
	// empty, WorkDir is used.
	ProjectDir string
	// WorkDir is the working directory: the anchor of path and ./path
	// rules, and where file tools may work without asking.
	WorkDir string
	// AdditionalDirs are permissions.additionalDirectories, absolute.
	AdditionalDirs []string
	// HomeDir is the anchor of ~/path rules; when empty they match nothing.
	HomeDir string
	// PrivateDirs are absolute directories that count as outside the working
	// directories even inside them: the toolpipe state directory, which holds
	// the server's database and other sessions' data. No read-only command
	// reads there, or reaches there recursively or by a pattern, without
	// approval.
	PrivateDirs []string `json:",omitempty"`
	// ReadOnlyCommand, when set, judges one part of a compound Bash command
	// (its statement with redirections), so that "npm test | head" needs a
	// rule for npm test only, as in Claude Code. It must be pure; pass
	// readonly.IsReadOnly. It is not serialised.
	ReadOnlyCommand func(command string) bool `json:"-"`
	// BashPaths, when set, turns on the checks of what Bash commands read
	// (readonly.Reads, judged in bash_paths.go): a command allowed for only
	// reading, that reads outside the working directories or inside a private
	// one (or reads a path only known when it runs), asks as a file tool would,
	// and Read deny rules apply to what every Bash command reads ("cat .env",
	// "grep -r KEY ." under Read(./.env)). It returns more paths the command
	// reads, such as the caller's resolutions of its symbolic links, and
	// whether one is only known when it runs; readonly.ReadPaths (nothing
	// more) does. It must be pure. It is not serialised.
	BashPaths func(command string) (paths []string, dynamic bool) `json:"-"`
}

// Decide returns whether a tool call may run. Rules are checked first, deny
// then ask then allow, and the first list with a match decides; only then
// does the mode decide, together with the confinement of file tools to the
// working directories. Plan mode sits between ask and allow: no allow rule
// can let a call that is not read-only run in plan mode. Decide is pure and
// deterministic; it never panics on any input. In DontAsk mode a call that
// would ask is denied.
func Decide(req Request, pol Policy) Decision {
	return pol.Mode.DenyAsk(decide(req, pol))
}

func decide(req Request, pol Policy) Decision {
	c := newCall(&req, &pol)
	for _, r := range pol.Deny {
		if c.hits(r) {
			return deniedByRule(c, r)
		}
	}
	if d, ok := c.bashReadDenied(); ok {
		return d
	}
	for _, r := range pol.Ask {
		if c.hits(r) {
			return askedByRule(c, r)
		}
	}
	if pol.Mode == Plan && !c.readOnly() {
		return deniedByPlan(c)
	}
	if c.uncheckable() {
		return Decision{Ask, fmt.Sprintf("The %s cannot be parsed, so the deny and ask rules cannot be checked against it; approval required.", c.what()), ""}
	}
	if rules, ok := c.allowedBy(); ok {
		return Decision{Allow, fmt.Sprintf("Allowed by the rule %s.", rules), rules}
	}
	return c.modeDefault()
}

// DeniedPath returns the deny rule that forbids tool to touch the absolute,
// resolved path, if any. Glob and Grep use it to drop results that the
// rules hide: a search of the working directory is allowed, but a match
// inside a denied ./secrets must not be shown.
func DeniedPath(tool, path string, pol Policy) (Rule, bool) {
	c := newCall(&Request{Tool: tool, Paths: []string{path}}, &pol)
	for _, r := range pol.Deny {
		if c.hits(r) {
			return r, true
		}
	}
	return Rule{}, false
}

type toolKind uint8

const (
	kindOther toolKind = iota // MCP and tools without specifiers
	kindBash
	kindRead // Read, Glob, Grep
	kindEdit // Edit, Write
	kindWebFetch
)

// call is a Request prepared once for matching against every rule.
type call struct {
	req  *Request
	pol  *Policy
	kind toolKind

	parsed, parsedOK bool
	parts            []bashPart
	unmatched        string               // first Bash part no allow rule covered
	outside          string               // what a read-only Bash part reads outside the working directories
	reads            map[string]bashReads // bashTargets' answers, by command

	paths []string
	host  string
}

func newCall(req *Request, pol *Policy) *call {
	c := &call{req: req, pol: pol}
	switch req.access() {
	case tool.AccessCommand:
		c.kind = kindBash
	case tool.AccessRead:
		c.kind = kindRead
		c.paths = pol.cleanPaths(req.Paths)
	case tool.AccessEdit:
		c.kind = kindEdit
		c.paths = pol.cleanPaths(req.Paths)
	case tool.AccessURL:
		c.kind = kindWebFetch
		c.host = hostOf(req.URL)
	}
	return c
}

// access is the request's kind, or the kind of the built-in tool it names.
func (req *Request) access() tool.AccessKind {
	if req.Kind != "" {
		return req.Kind
	}
	switch req.Tool {
	case ToolBash:
		return tool.AccessCommand
	case ToolRead, ToolGlob, ToolGrep:
		return tool.AccessRead
	case ToolEdit, ToolWrite:
		return tool.AccessEdit
	case ToolWebFetch:
		return tool.AccessURL
	}
	return tool.AccessOther
}

// parse splits the Bash command on first use: rules without a specifier and
// read-only commands never need it.
func (c *call) parse() bool {
	if !c.parsed {
		c.parsed = true
		c.parts, c.parsedOK = splitBash(c.req.Command)
	}
	return c.parsedOK
}

// applies reports whether rule r is about this call's tool. Read rules also
// cover the other tools that read files (Glob, Grep), and Edit rules those that
// change them (Write, NotebookEdit), as in Claude Code; an MCP server rule covers
// each of the server's tools.
func (c *call) applies(r Rule) bool {
	switch {
	case r.Tool == c.req.Tool:
		return true
	case r.Tool == ToolRead:
		return c.kind == kindRead
	case r.Tool == ToolEdit:
		return c.kind == kindEdit
	}
	return serverRuleCovers(r.Tool, c.req.Tool)
}

// serverRuleCovers reports whether ruleTool names a whole MCP server (mcp__server)
// of which tool (mcp__server__name) is one.
func serverRuleCovers(ruleTool, tool string) bool {
	return strings.HasPrefix(ruleTool, mcpPrefix) && !strings.Contains(ruleTool[len(mcpPrefix):], "__") &&
		strings.HasPrefix(tool, ruleTool+"__") && len(tool) > len(ruleTool)+2
}

// hits reports whether a deny or ask rule matches: for Bash, ANY part (seen
// through wrappers) or the whole command; for file tools, ANY path.
func (c *call) hits(r Rule) bool {
	if !c.applies(r) {
		return false
	}
	if r.m.kind == matchAll {
		return true
	}
	switch c.kind {
	case kindBash:
		if matchCommand(r.m, strings.TrimSpace(c.req.Command)) {
			return true
		}
		c.parse()
		for i := range c.parts {
			w, u := c.parts[i].variants(true)
			if matchCommand(r.m, w) || u != "" && matchCommand(r.m, u) {
				return true
			}
		}
	case kindRead, kindEdit:
		for _, p := range c.paths {
			if c.pol.matchPath(r.m, p) {
				return true
			}
		}
	case kindWebFetch:
		return matchDomain(r.m, c.host)
	}
	return false
}

// readOnly reports whether the call only reads, for plan mode. WebFetch
// reads a remote page and changes nothing here, so plan mode lets it ask.
func (c *call) readOnly() bool {
	switch c.kind {
	case kindRead, kindWebFetch:
		return true
	case kindEdit:
		return false
	}
	return c.req.ReadOnly
}

// uncheckable reports a call that deny or ask rules with a specifier might
// have matched had it been understood: a Bash command that does not parse,
// a URL without a host. Such a call must not slip through to a permissive
// mode or a bare allow rule.
func (c *call) uncheckable() bool {
	if c.kind != kindBash && c.kind != kindWebFetch {
		return false
	}
	for _, list := range [][]Rule{c.pol.Deny, c.pol.Ask} {
		for _, r := range list {
			if r.m.kind != matchAll && c.applies(r) {
				if c.kind == kindBash {
					return !c.parse()
				}
				return c.host == ""
			}
		}
	}
	return false
}
