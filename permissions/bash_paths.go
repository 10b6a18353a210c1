package permissions

import (
	"fmt"
	"path"
	"strings"

	"github.com/toolpipe/toolpipe/tool/readonly"
)

// This file is the one place the paths a Bash command reads are judged: they
// must be inside the working directories and outside the private ones for a
// read-only command to run without approval, and no Read deny rule may cover
// them, for any command. What a command reads comes from readonly.Reads (pure:
// patterns, recursive reads, the files options and scripts name) and from
// Policy.BashPaths, which adds the same paths with their symbolic links
// resolved by the caller.

// alwaysReadable are device files a command may read anywhere.
var alwaysReadable = map[string]bool{
	"/dev/null": true, "/dev/stdin": true, "/dev/zero": true, "/dev/random": true, "/dev/urandom": true,
}

// bashTarget is one read target with its path absolute and clean.
type bashTarget struct {
	readonly.Target
	abs string
}

// bashTargets returns what command reads, absolute (relative paths joined to
// the working directory, ~ to the home directory), and whether something it
// reads is only known when it runs (or lies in another user's home directory).
// A path only BashPaths names (a resolved symbolic link) is read the way the
// command's recursive targets are, if it has any: the link may be one of them.
// The answer is kept: a decision asks for it more than once.
func (c *call) bashTargets(command string) ([]bashTarget, bool) {
	if c.pol.BashPaths == nil {
		return nil, false
	}
	if r, ok := c.reads[command]; ok {
		return r.ts, r.dynamic
	}
	ts, dynamic := c.computeTargets(command)
	if c.reads == nil {
		c.reads = map[string]bashReads{}
	}
	c.reads[command] = bashReads{ts, dynamic}
	return ts, dynamic
}

type bashReads struct {
	ts      []bashTarget
	dynamic bool
}

func (c *call) computeTargets(command string) (ts []bashTarget, dynamic bool) {
	targets, dynamic := readonly.Reads(command)
	extra, dyn := c.pol.BashPaths(command)
	dynamic = dynamic || dyn
	seen := make(map[string]bool, len(targets))
	var like readonly.Target
	for _, t := range targets {
		seen[t.Path] = true
		if t.Recursive {
			like.Recursive, like.Hidden = true, like.Hidden || t.Hidden
		}
	}
	for _, p := range extra {
		if !seen[p] {
			seen[p] = true
			t := like
			t.Path = p
			targets = append(targets, t)
		}
	}
	for _, t := range targets {
		abs, known := c.absolute(t.Path)
		switch {
		case !known:
			dynamic = true
		case abs != "":
			ts = append(ts, bashTarget{t, abs})
		}
	}
	return ts, dynamic
}

// absolute makes a path as written absolute and clean; "" when it is relative
// and there is no working directory, false when it is only known when it runs.
func (c *call) absolute(p string) (string, bool) {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if c.pol.HomeDir == "" {
			return "", false
		}
		p = c.pol.HomeDir + p[1:]
	case strings.HasPrefix(p, "~"):
		return "", false // ~user, ~+, ~-
	case !strings.HasPrefix(p, "/"):
		if c.pol.WorkDir == "" {
			return "", true
		}
		p = c.pol.WorkDir + "/" + p
	}
	return path.Clean(p), true
}

// readsOutside describes what command reads outside the working directories
// or inside a private one, or "" when it reads nothing there.
func (c *call) readsOutside(command string) string {
	ts, dynamic := c.bashTargets(command)
	for _, t := range ts {
		if where := c.targetOutside(t); where != "" {
			return where
		}
	}
	if dynamic {
		return "a path that is only known when it runs (a variable, a command's output, xargs' input or a list of files it reads), which may be outside the working directories"
	}
	return ""
}

// targetOutside describes how target t leaves the working directories: its path
// (or, for a pattern, the directory it starts from) is outside them, the
// pattern may match "..", or it may reach a private directory.
func (c *call) targetOutside(t bashTarget) string {
	if alwaysReadable[t.abs] {
		return ""
	}
	base := t.abs
	if t.Glob {
		base = patternBase(t.abs)
		if mayClimb(t.abs) {
			return fmt.Sprintf("%s, a pattern that may match \"..\" and so lead out of the working directories (%s)", shorten(t.Path), c.workingDirs())
		}
	}
	if !c.pol.insideWorkingDirs(base) {
		if dir, ok := c.pol.privateDir(base); ok {
			return fmt.Sprintf("%s, inside %s, which holds the server's database and other sessions' data", shorten(base), dir)
		}
		return fmt.Sprintf("%s, outside the working directories (%s)", shorten(base), c.workingDirs())
	}
	for _, dir := range c.pol.PrivateDirs {
		// Something inside: listing the directory that holds it shows only its name.
		if pathsIntersect(c.targetSegs(t, false), append(literalSegs(dir), anySeg(false), seg{many: true})) {
			return fmt.Sprintf("what is in %s (%s), where the server's database and other sessions' data are kept", shorten(dir), describeTarget(t))
		}
	}
	return ""
}

// bashReadDenied applies Read deny rules to what a Bash command reads, so that
// Read(./.env) also keeps "cat .env", "grep KEY .env" and "sed 'r .env' f" from
// running: a path the rule covers is denied; a pattern that may match one, or a
// recursive read of a directory holding one ("cat .en?", "grep -r KEY ."),
// asks (in plan mode it is denied, as nobody is asked there).
func (c *call) bashReadDenied() (Decision, bool) {
	if c.kind != kindBash || c.pol.BashPaths == nil {
		return Decision{}, false
	}
	ts, _ := c.bashTargets(c.req.Command)
	for _, r := range c.pol.Deny {
		if r.Tool != ToolRead || r.m.kind == matchAll {
			continue
		}
		for _, t := range ts {
			if !t.Glob && c.pol.matchPath(r.m, t.abs) {
				return Decision{Deny, fmt.Sprintf("Permission to use %s was denied: it names %s, which the rule %s in permissions.deny forbids reading.",
					c.what(), shorten(t.abs), r), r.String()}, true
			}
		}
	}
	for _, r := range c.pol.Deny {
		if r.Tool != ToolRead || r.m.kind == matchAll {
			continue
		}
		for _, t := range ts {
			if (t.Glob || t.Recursive) && c.reachesRule(t, r) {
				if c.pol.Mode == Plan {
					return Decision{Deny, fmt.Sprintf("Permission to use %s was denied: %s, what the rule %s in permissions.deny forbids reading, and plan mode does not ask for approval.",
						c.what(), describeTarget(t), r), r.String()}, true
				}
				return Decision{Ask, fmt.Sprintf("The %s may read what the rule %s in permissions.deny forbids reading: %s; approval required.",
					c.what(), r, describeTarget(t)), r.String()}, true
			}
		}
	}
	return Decision{}, false
}

// describeTarget says how a pattern or recursive read may reach a path.
func describeTarget(t bashTarget) string {
	switch {
	case t.Glob && t.Recursive:
		return fmt.Sprintf("it reads what the pattern %s matches, recursively", shorten(t.Path))
	case t.Glob:
		return fmt.Sprintf("the pattern %s may match it", shorten(t.Path))
	case t.Lists:
		return fmt.Sprintf("it lists what is in %s", shorten(t.Path))
	}
	return fmt.Sprintf("it reads everything under %s", shorten(t.Path))
}

// reachesRule reports whether some path target t reads is one the path rule
// covers: the rule's pattern, or anything below what it matches (except for
// a find -name listing, which shows only names matching its pattern).
func (c *call) reachesRule(t bashTarget, r Rule) bool {
	anchor := path.Clean(c.pol.anchorDir(r.m.anchor))
	if !strings.HasPrefix(anchor, "/") {
		return false
	}
	alts, ok := readonly.ExpandBraces(r.m.text, true)
	if !ok {
		return true
	}
	for _, alt := range alts {
		rule := literalSegs(anchor)
		for _, s := range strings.Split(alt, "/") {
			if s == "**" {
				rule = append(rule, seg{many: true})
			} else {
				rule = append(rule, patternSeg(s, true))
			}
		}
		switch {
		case !t.Recursive && !t.Lists && len(rule) > 0 && rule[len(rule)-1].many:
			// secrets/** covers what is in secrets: "cat *" reading the
			// directory itself reads nothing there.
			rule = append(rule[:len(rule)-1], anySeg(false), seg{many: true})
		case t.Name == "":
			rule = append(rule, seg{many: true})
		}
		if pathsIntersect(c.targetSegs(t, false), rule) || t.Name != "" && pathsIntersect(c.targetSegs(t, true), rule) {
			return true
		}
	}
	return false
}

// targetSegs returns target t as segment patterns: its path (each segment of
// a shell pattern matched as bash does, dot files only by a leading "."),
// then, for a recursive read, any segments below and the name it lists, and
// for a listing, the entries of a directory it matches.
// start keeps only the path: a find's starting point is listed too.
func (c *call) targetSegs(t bashTarget, start bool) []seg {
	var segs []seg
	for _, s := range strings.Split(strings.TrimPrefix(t.abs, "/"), "/") {
		if s == "" {
			continue
		}
		if t.Glob && strings.ContainsAny(s, "*?[") {
			g := patternSeg(s, false)
			g.dotRule = true
			segs = append(segs, g)
			continue
		}
		segs = append(segs, literalSeg(s))
	}
	switch {
	case start:
	case t.Recursive:
		segs = append(segs, seg{many: true, noDot: !t.Hidden})
		if t.Name != "" {
			segs = append(segs, patternSeg(t.Name, true))
		}
	case t.Lists:
		segs = append(segs, seg{many: true, noDot: !t.Hidden, upTo1: true})
	}
	return segs
}

// literalSegs splits an absolute path into literal segments.
func literalSegs(dir string) []seg {
	var segs []seg
	for _, s := range strings.Split(strings.Trim(dir, "/"), "/") {
		if s != "" {
			segs = append(segs, literalSeg(s))
		}
	}
	return segs
}

// patternBase is the directory a pattern starts from: its segments before the
// first one with a pattern character.
func patternBase(p string) string {
	i := strings.IndexAny(p, "*?[{")
	if i < 0 {
		return p
	}
	return path.Clean(p[:strings.LastIndexByte(p[:i], '/')+1])
}

// mayClimb reports whether a segment of a pattern may match "..": bash before
// 5.2 (and with globskipdots off) matches it with .*.
func mayClimb(p string) bool {
	dots := literalSeg("..")
	for _, s := range strings.Split(p, "/") {
		if strings.ContainsAny(s, "*?[") {
			g := patternSeg(s, false)
			g.dotRule = true
			if segsIntersect(g, dots) {
				return true
			}
		}
	}
	return false
}
