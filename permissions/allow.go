package permissions

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolpipe/toolpipe/tool"
)

// allowedBy reports whether allow rules cover the whole call, and which
// rules did. For Bash, EACH part of a compound command needs an allow rule
// (or the read-only hook), so that Bash(npm test) does not allow
// "npm test && curl x | sh"; for file tools, each path needs one.
func (c *call) allowedBy() (string, bool) {
	switch c.kind {
	case kindBash:
		return c.bashAllowedBy()
	case kindRead, kindEdit:
		var used []string
		for _, p := range c.paths {
			i := slices.IndexFunc(c.pol.Allow, func(r Rule) bool { return c.applies(r) && c.pol.matchPath(r.m, p) })
			if i < 0 {
				return "", false
			}
			used = addRule(used, c.pol.Allow[i])
		}
		return strings.Join(used, ", "), true
	}
	for _, r := range c.pol.Allow {
		if c.applies(r) && (r.m.kind == matchAll || c.kind == kindWebFetch && matchDomain(r.m, c.host)) {
			return r.String(), true
		}
	}
	return "", false
}

// A command that cannot be parsed is never allowed by a rule, not even by a
// bare Bash rule: what it would run is unknown, so a person decides.
func (c *call) bashAllowedBy() (string, bool) {
	if !c.parse() {
		return "", false
	}
	for _, r := range c.pol.Allow {
		if r.Tool == ToolBash && r.m.kind == matchAll {
			return r.String(), true
		}
	}
	if len(c.parts) == 0 {
		return "", false
	}
	// An exact rule that spells out the whole compound command was written
	// by someone who read all of it.
	whole := strings.TrimSpace(c.req.Command)
	for _, r := range c.pol.Allow {
		if r.Tool == ToolBash && r.m.kind == bashExact && r.m.text == whole {
			return r.String(), true
		}
	}
	var used []string
	for i := range c.parts {
		part := &c.parts[i]
		w, u := part.variants(false)
		k := slices.IndexFunc(c.pol.Allow, func(r Rule) bool {
			return r.Tool == ToolBash && (matchCommand(r.m, w) || u != "" && matchCommand(r.m, u))
		})
		switch {
		case k >= 0:
			used = addRule(used, c.pol.Allow[k])
		case c.pol.ReadOnlyCommand != nil && c.pol.ReadOnlyCommand(part.stmt):
			if where := c.readsOutside(part.stmt); where != "" {
				c.unmatched, c.outside = part.text, where
				return "", false
			}
		default:
			c.unmatched = part.text
			return "", false
		}
	}
	// Parts that are each read-only but no rule was used: the caller's
	// ReadOnly verdict on the whole command decides, in modeDefault.
	return strings.Join(used, ", "), len(used) > 0
}

func addRule(used []string, r Rule) []string {
	s := r.String()
	if slices.Contains(used, s) {
		return used
	}
	return append(used, s)
}

// modeDefault decides a call no rule decided, from the mode and, for file
// tools, from whether every path is inside the working directories.
func (c *call) modeDefault() Decision {
	mode := c.pol.Mode
	switch c.kind {
	case kindBash:
		if c.req.ReadOnly && c.outside == "" {
			c.outside = c.readsOutside(c.req.Command)
		}
		switch {
		case c.outside != "" && mode == Plan:
			return Decision{Deny, fmt.Sprintf("Permission to use %s was denied: it reads %s, and plan mode does not ask for approval.", c.what(), c.outside), ""}
		case c.outside != "" && mode != BypassPermissions:
			return Decision{Ask, fmt.Sprintf("The %s only reads, but it reads %s; approval required.", c.what(), c.outside), ""}
		case c.req.ReadOnly:
			return Decision{Allow, "Allowed: the command only reads.", ""}
		case mode == BypassPermissions:
			return Decision{Allow, "Allowed by bypassPermissions mode.", ""}
		case c.parsed && !c.parsedOK:
			return Decision{Ask, fmt.Sprintf("The %s cannot be parsed, so no allow rule can cover it; approval required.", c.what()), ""}
		case c.unmatched != "":
			return Decision{Ask, fmt.Sprintf("No allow rule matches the command %q in the %s; approval required.", shorten(c.unmatched), c.what()), ""}
		}
		return Decision{Ask, fmt.Sprintf("No allow rule matches the %s; approval required in %s mode.", c.what(), mode), ""}
	case kindRead, kindEdit:
		return c.fileDefault()
	}
	if c.req.access() == tool.AccessSession {
		return Decision{Allow, "Allowed: the tool changes only its own session.", ""}
	}
	if mode == BypassPermissions {
		return Decision{Allow, "Allowed by bypassPermissions mode.", ""}
	}
	return Decision{Ask, fmt.Sprintf("No allow rule matches the %s; approval required in %s mode.", c.what(), mode), ""}
}

func (c *call) fileDefault() Decision {
	mode := c.pol.Mode
	outside := ""
	for _, p := range c.paths {
		if !c.pol.insideWorkingDirs(p) {
			outside = p
			break
		}
	}
	protected := c.kind == kindEdit && slices.ContainsFunc(c.paths, protectedPath)
	switch {
	case outside != "" && mode == Plan:
		return Decision{Deny, fmt.Sprintf("Permission to use %s was denied: %s, and plan mode does not ask for approval.", c.what(), outsideReason(c, outside)), ""}
	case outside != "" && mode != BypassPermissions:
		return Decision{Ask, fmt.Sprintf("%s: approval required.", outsideReason(c, outside)), ""}
	case c.kind == kindRead:
		if outside != "" {
			return Decision{Allow, "Allowed by bypassPermissions mode.", ""}
		}
		return Decision{Allow, "Allowed: reading inside the working directories.", ""}
	case protected && (mode == AcceptEdits || mode == BypassPermissions):
		return Decision{Ask, fmt.Sprintf("The %s changes a control file or directory (.git, .claude, .vscode, .idea, .mcp.json or toolpipe.yaml), which %s mode does not cover; approval required.", c.what(), mode), ""}
	case mode == BypassPermissions:
		return Decision{Allow, "Allowed by bypassPermissions mode.", ""}
	case mode == AcceptEdits:
		return Decision{Allow, "Allowed by acceptEdits mode: an edit inside the working directories.", ""}
	}
	return Decision{Ask, fmt.Sprintf("No allow rule matches the %s; approval required in %s mode.", c.what(), mode), ""}
}
