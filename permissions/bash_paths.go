package permissions

import (
	"fmt"
	"path"
	"strings"
)

// alwaysReadable are device files a command may read anywhere.
var alwaysReadable = map[string]bool{
	"/dev/null": true, "/dev/stdin": true, "/dev/zero": true, "/dev/random": true, "/dev/urandom": true,
}

// bashReads returns the absolute, clean paths command may read, from
// Policy.BashPaths (relative ones joined to the working directory, ~ to the home
// directory), and whether one is only known when it runs (or lies in another
// user's home directory).
func (c *call) bashReads(command string) (paths []string, dynamic bool) {
	if c.pol.BashPaths == nil {
		return nil, false
	}
	raw, dynamic := c.pol.BashPaths(command)
	for _, p := range raw {
		switch {
		case p == "~" || strings.HasPrefix(p, "~/"):
			if c.pol.HomeDir == "" {
				dynamic = true
				continue
			}
			p = c.pol.HomeDir + p[1:]
		case strings.HasPrefix(p, "~"):
			dynamic = true // ~user
			continue
		case !strings.HasPrefix(p, "/"):
			if c.pol.WorkDir == "" {
				continue
			}
			p = c.pol.WorkDir + "/" + p
		}
		paths = append(paths, path.Clean(p))
	}
	return paths, dynamic
}

// readsOutside describes what command reads outside the working directories,
// or "" when it reads nothing there. Symbolic links are not followed: the paths
// are judged as written.
func (c *call) readsOutside(command string) string {
	paths, dynamic := c.bashReads(command)
	for _, p := range paths {
		if !alwaysReadable[p] && !c.pol.insideWorkingDirs(p) {
			return fmt.Sprintf("%s, outside the working directories (%s)", shorten(p), c.workingDirs())
		}
	}
	if dynamic {
		return "a path that is only known when it runs (a variable, a command's output or xargs' input), which may be outside the working directories"
	}
	return ""
}

// bashReadDenied applies Read deny rules to the paths a Bash command names, so
// that Read(./.env) also keeps "cat .env" and "grep KEY .env" from running.
func (c *call) bashReadDenied() (Decision, bool) {
	if c.kind != kindBash || c.pol.BashPaths == nil {
		return Decision{}, false
	}
	paths, _ := c.bashReads(c.req.Command)
	for _, r := range c.pol.Deny {
		if r.Tool != ToolRead {
			continue
		}
		for _, p := range paths {
			if r.m.kind != matchAll && c.pol.matchPath(r.m, p) {
				return Decision{Deny, fmt.Sprintf("Permission to use %s was denied: it names %s, which the rule %s in permissions.deny forbids reading.",
					c.what(), shorten(p), r), r.String()}, true
			}
		}
	}
	return Decision{}, false
}
