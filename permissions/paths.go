package permissions

import (
	"errors"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// anchor is the directory a path rule is relative to. It is resolved at
// decision time, from the Policy, because the same parsed rules serve
// sessions with different working directories.
type anchor uint8

const (
	anchorWorkDir anchor = iota // p or ./p
	anchorProject               // /p: the settings file's project root
	anchorHome                  // ~/p
	anchorRoot                  // //p: the filesystem root
)

// compilePath reads a gitignore-style path specifier with Claude Code's four
// forms. A pattern that has no slash but a trailing one (*.env, node_modules/)
// matches at any depth below its anchor, as in .gitignore; every other
// pattern is anchored. The compiled glob is relative to the anchor.
func compilePath(spec string) (matcher, error) {
	m := matcher{kind: pathGlob, anchor: anchorWorkDir}
	rest, anchored := spec, true
	switch {
	case strings.HasPrefix(spec, "//"):
		m.anchor, rest = anchorRoot, spec[2:]
	case spec == "~" || strings.HasPrefix(spec, "~/"):
		m.anchor, rest = anchorHome, strings.TrimPrefix(spec[1:], "/")
	case strings.HasPrefix(spec, "/"):
		m.anchor, rest = anchorProject, spec[1:]
	case strings.HasPrefix(spec, "./"):
		rest = spec[2:]
	default:
		anchored = strings.Contains(strings.TrimRight(spec, "/"), "/")
	}
	// A trailing slash means "this directory"; matching a directory already
	// covers what is under it (below), so the slash adds nothing.
	rest = strings.TrimRight(rest, "/")
	segs := strings.Split(rest, "/")
	kept := segs[:0]
	for _, seg := range segs {
		switch seg {
		case "..":
			return matcher{}, errors.New("'..' is not allowed in a path rule; write an absolute path as //path")
		case "":
			if rest != "" {
				return matcher{}, errors.New("empty path segment ('//') inside a path rule")
			}
		case ".":
		default:
			kept = append(kept, seg)
		}
	}
	rest = strings.Join(kept, "/")
	switch {
	case rest == "":
		rest = "**"
	case !anchored:
		rest = "**/" + rest
	}
	if !doublestar.ValidatePattern(rest) {
		return matcher{}, errors.New("invalid glob pattern (unclosed '[' or '{'?)")
	}
	m.text = rest
	return m, nil
}

// anchorDir returns the absolute directory a rule's anchor stands for, or ""
// when the Policy does not know it (then the rule matches nothing).
func (p *Policy) anchorDir(a anchor) string {
	switch a {
	case anchorRoot:
		return "/"
	case anchorHome:
		return p.HomeDir
	case anchorProject:
		if p.ProjectDir != "" {
			return p.ProjectDir
		}
	}
	return p.WorkDir
}

// matchPath reports whether the absolute, clean path abs matches a path rule.
// Like .gitignore, a rule that matches a directory matches everything below
// it, so each ancestor of abs below the anchor is tried as well:
// Read(./secrets) denies ./secrets/key.pem.
func (p *Policy) matchPath(m matcher, abs string) bool {
	if m.kind == matchAll {
		return true
	}
	rel, ok := relative(path.Clean(p.anchorDir(m.anchor)), abs)
	if !ok {
		return false
	}
	if rel == "" {
		return m.text == "**" // a rule names what is in a directory, not the directory itself
	}
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' && doublestar.MatchUnvalidated(m.text, rel[:i]) {
			return true
		}
	}
	return doublestar.MatchUnvalidated(m.text, rel)
}

// relative returns abs relative to dir ("" for dir itself), or false when
// abs is not inside dir. Both must be clean; dir must be absolute.
func relative(dir, abs string) (string, bool) {
	switch {
	case !strings.HasPrefix(dir, "/"):
		return "", false
	case dir == "/":
		return abs[min(1, len(abs)):], strings.HasPrefix(abs, "/")
	case abs == dir:
		return "", true
	case len(abs) > len(dir) && abs[len(dir)] == '/' && strings.HasPrefix(abs, dir):
		return abs[len(dir)+1:], true
	}
	return "", false
}

// insideWorkingDirs reports whether abs is in the working directory or one
// of the additional directories, the only places file tools may touch
// without a rule or an approval, and not in a private directory.
func (p *Policy) insideWorkingDirs(abs string) bool {
	if _, private := p.privateDir(abs); private {
		return false
	}
	if _, ok := relative(path.Clean(p.WorkDir), abs); ok {
		return true
	}
	for _, d := range p.AdditionalDirs {
		if _, ok := relative(path.Clean(d), abs); ok {
			return true
		}
	}
	return false
}

// privateDir returns the private directory abs is in, if any.
func (p *Policy) privateDir(abs string) (string, bool) {
	for _, d := range p.PrivateDirs {
		if _, ok := relative(path.Clean(d), abs); ok {
			return d, true
		}
	}
	return "", false
}

// protectedPath reports whether abs is a control file or inside a directory
// whose contents steer git, Claude Code or an editor (.git/hooks runs code),
// where Claude Code asks even in bypassPermissions; .claude/commands, agents and
// skills are exempt because agents write them routinely. The control files are
// toolpipe's own too (issue 40 item 4): .mcp.json starts MCP servers and
// toolpipe.yaml configures the next trusted run, so a model that may edit without
// asking must not write either. Names compare case-insensitively: on a
// case-insensitive file system .MCP.json is .mcp.json.
func protectedPath(abs string) bool {
	segs := strings.Split(abs, "/")
	for i, s := range segs {
		switch {
		case eqFold(s, ".git", ".vscode", ".idea"):
			return true
		case i == len(segs)-1 && eqFold(s, ".mcp.json", "toolpipe.yaml", "toolpipe.yml"):
			return true
		case eqFold(s, ".claude"):
			if i+1 >= len(segs) {
				return true
			}
			if !eqFold(segs[i+1], "commands", "agents", "skills") {
				return true
			}
		}
	}
	return false
}

// eqFold reports whether s is one of names, ignoring case.
func eqFold(s string, names ...string) bool {
	for _, n := range names {
		if strings.EqualFold(s, n) {
			return true
		}
	}
	return false
}

// cleanPaths makes the request's paths absolute and clean. The caller has
// already resolved symbolic links; relative paths are joined to the working
// directory rather than rejected so that a caller's slip errs towards the
// confinement check, and an empty list means the working directory (Glob and
// Grep without a path search there).
func (p *Policy) cleanPaths(paths []string) []string {
	if len(paths) == 0 {
		paths = []string{p.WorkDir}
	}
	out := make([]string, len(paths))
	for i, s := range paths {
		if !strings.HasPrefix(s, "/") && p.WorkDir != "" {
			s = p.WorkDir + "/" + s
		}
		// Without a working directory a relative path stays relative, and
		// a relative path is inside nothing and matched by no path rule.
		out[i] = path.Clean(s)
	}
	return out
}
