package activities

import (
	"fmt"
	"path/filepath"

	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool"
)

// searchScope turns a Glob or Grep call's Scope into the permitted directories
// and the filter that hides what the deny rules and sandbox.filesystem.denyRead
// cover. A rule that does not parse is an error: the workflow sent rules it had
// parsed, so this means the worker and the workflow disagree, and searching
// without the rule could show a file it denies.
func searchScope(call tool.Call) (dirs []string, hide func(abs string) bool, err error) {
	dirs, hide, err = ruleScope(call)
	if err != nil || call.Sandbox == nil || len(call.Sandbox.Filesystem.DenyRead) == 0 {
		return dirs, hide, err
	}
	byRules := hide
	return dirs, func(abs string) bool {
		return deniedBy(call, abs) != "" || byRules != nil && byRules(abs)
	}, nil
}

// ruleScope is searchScope for the deny rules.
func ruleScope(call tool.Call) (dirs []string, hide func(abs string) bool, err error) {
	dirs = []string{filepath.Clean(call.Workdir)}
	if call.Scope == nil {
		return dirs, nil, nil
	}
	pol := permissions.Policy{
		WorkDir: call.Workdir, ProjectDir: call.Scope.ProjectDir, HomeDir: call.Scope.HomeDir,
		AdditionalDirs: call.Scope.Dirs,
	}
	for _, text := range call.Scope.DenyRead {
		r, err := permissions.ParseRule(text)
		if err != nil {
			return nil, nil, fmt.Errorf("deny rule %q: %w", text, err)
		}
		pol.Deny = append(pol.Deny, r)
	}
	dirs = append(dirs, call.Scope.Dirs...)
	if len(pol.Deny) == 0 {
		return dirs, nil, nil
	}
	return dirs, func(abs string) bool {
		_, denied := permissions.DeniedPath(call.Name, abs, pol)
		return denied
	}, nil
}
