package workflows

import (
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool"
)

// searchScope is what a call of a tool that searches (Glob, Grep) may show under
// the turn's permission policy: the deny rules that apply to it (Read rules cover
// them, as in Claude Code) and the permitted directories. The permission check lets
// a search of the working directory run; the tool itself must then leave out the
// files those rules hide, which only it sees. For a command (Bash) it is only the
// additionalDirectories its sandboxes show (the sandboxes are Bash's: sandbox/). It is pure: the policy is part of the
// input.
func (t *turn) searchScope(name string) *tool.Scope {
	if t.in.Settings == nil || t.in.Settings.Permissions == nil {
		return nil
	}
	pol := t.in.Settings.Permissions
	if name == tool.BashName && len(pol.AdditionalDirs) > 0 {
		// Bash's sandboxes show additionalDirectories and guard their control files.
		return &tool.Scope{Dirs: pol.AdditionalDirs}
	}
	if def, ok := t.lookup(name); !ok || !def.Searches() {
		return nil
	}
	s := &tool.Scope{Dirs: pol.AdditionalDirs, ProjectDir: pol.ProjectDir, HomeDir: pol.HomeDir}
	for _, r := range pol.Deny {
		if r.Tool == permissions.ToolRead || r.Tool == name {
			s.DenyRead = append(s.DenyRead, r.String())
		}
	}
	return s
}
