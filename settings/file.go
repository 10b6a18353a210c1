package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/permissions"
)

// The shapes of a settings file that toolpipe reads; everything else is ignored.
type (
	wireFile struct {
		Hooks           map[string]json.RawMessage `json:"hooks"`
		DisableAllHooks bool                       `json:"disableAllHooks"`
		Permissions     *wirePermissions           `json:"permissions"`
	}
	wirePermissions struct {
		Allow                 []string `json:"allow"`
		Deny                  []string `json:"deny"`
		Ask                   []string `json:"ask"`
		DefaultMode           string   `json:"defaultMode"`
		AdditionalDirectories []string `json:"additionalDirectories"`
	}
	// wireHooks decodes every event's list at once, so that a type error names
	// its place in the whole file (hooks.PreToolUse.0.matcher, at its offset).
	wireHooks struct {
		Hooks struct {
			PreToolUse         []wireGroup `json:"PreToolUse"`
			PostToolUse        []wireGroup `json:"PostToolUse"`
			PostToolUseFailure []wireGroup `json:"PostToolUseFailure"`
			PermissionRequest  []wireGroup `json:"PermissionRequest"`
			Notification       []wireGroup `json:"Notification"`
			UserPromptSubmit   []wireGroup `json:"UserPromptSubmit"`
			Stop               []wireGroup `json:"Stop"`
			SubagentStop       []wireGroup `json:"SubagentStop"`
			SessionStart       []wireGroup `json:"SessionStart"`
			SessionEnd         []wireGroup `json:"SessionEnd"`
			PreCompact         []wireGroup `json:"PreCompact"`
		} `json:"hooks"`
	}
	wireGroup struct {
		Matcher string     `json:"matcher"`
		Hooks   []wireHook `json:"hooks"`
	}
	wireHook struct {
		Type            string   `json:"type"`
		Command         string   `json:"command"`
		Prompt          string   `json:"prompt"`
		Model           string   `json:"model"`
		ContinueOnBlock bool     `json:"continueOnBlock"`
		Timeout         *float64 `json:"timeout"`
	}
)

type parsedFile struct {
	file            string
	tools           func(string) bool // LoadOptions.Tools
	hooks           hooks.Config
	perms           Permissions
	disableAllHooks bool
	warnings        []string
}

// parseFile decodes one settings file and checks what toolpipe uses of it.
func parseFile(file string, data []byte, projectDir string, tools func(string) bool) (parsedFile, error) {
	pf := parsedFile{file: file, tools: tools}
	if len(bytes.TrimSpace(data)) == 0 {
		return pf, nil // an empty file is no settings, as an editor may leave it
	}
	var w wireFile
	if err := json.Unmarshal(data, &w); err != nil {
		return pf, decodeError(file, data, err)
	}
	pf.disableAllHooks = w.DisableAllHooks
	if err := pf.parseHooks(data, w.Hooks); err != nil {
		return pf, err
	}
	if w.Permissions != nil {
		if err := pf.parsePermissions(data, w.Permissions, projectDir); err != nil {
			return pf, err
		}
	}
	return pf, nil
}

func (pf *parsedFile) parseHooks(data []byte, events map[string]json.RawMessage) error {
	names := make([]string, 0, len(events))
	for name := range events {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if slices.Contains(hooks.Events, hooks.Event(name)) {
			continue
		}
		for _, e := range hooks.Events {
			if strings.EqualFold(name, string(e)) {
				return at(pf.file, data, fmt.Sprintf("hooks.%s: event names are case-sensitive; did you mean %s?", name, e), "hooks", name)
			}
		}
		pf.warnings = append(pf.warnings, fmt.Sprintf("%s: hooks.%s is not a hook event toolpipe knows; it is ignored", pf.file, name))
	}
	var w wireHooks
	if err := json.Unmarshal(data, &w); err != nil {
		return decodeError(pf.file, data, err)
	}
	h := &w.Hooks
	lists := map[hooks.Event][]wireGroup{
		hooks.PreToolUse: h.PreToolUse, hooks.PostToolUse: h.PostToolUse, hooks.PostToolUseFailure: h.PostToolUseFailure,
		hooks.PermissionRequest: h.PermissionRequest, hooks.Notification: h.Notification, hooks.UserPromptSubmit: h.UserPromptSubmit,
		hooks.Stop: h.Stop, hooks.SubagentStop: h.SubagentStop, hooks.SessionStart: h.SessionStart, hooks.SessionEnd: h.SessionEnd,
		hooks.PreCompact: h.PreCompact,
	}
	for _, e := range hooks.Events { // in a fixed order, not the map's
		gs, err := pf.groups(data, e, lists[e])
		if err != nil {
			return err
		}
		pf.hooks.Add(e, gs...)
	}
	return nil
}

// groups checks one event's groups: matchers compile, commands and prompts are not
// empty, timeouts are positive. Hooks of other types (agent, http), and prompt hooks
// of events that have no conversation to judge, are skipped with a warning.
func (pf *parsedFile) groups(data []byte, e hooks.Event, wgs []wireGroup) ([]hooks.Group, error) {
	var out []hooks.Group
	for i, wg := range wgs {
		if err := hooks.CheckMatcher(wg.Matcher); err != nil {
			return nil, at(pf.file, data, fmt.Sprintf("hooks.%s[%d]: %v", e, i, err), "hooks", string(e), i, "matcher")
		}
		g := hooks.Group{Matcher: wg.Matcher}
		for j, h := range wg.Hooks {
			where := fmt.Sprintf("hooks.%s[%d].hooks[%d]", e, i, j)
			path := []any{"hooks", string(e), i, "hooks", j}
			c, skip, err := pf.hook(data, e, h, where, path)
			if err != nil {
				return nil, err
			}
			if skip != "" {
				pf.warnings = append(pf.warnings, fmt.Sprintf("%s: %s %s", pf.file, where, skip))
				continue
			}
			g.Hooks = append(g.Hooks, c)
		}
		if len(g.Hooks) > 0 {
			out = append(out, g)
		}
	}
	return out, nil
}

// hook checks one hook entry. skip, when set, says why toolpipe does not run it.
func (pf *parsedFile) hook(data []byte, e hooks.Event, h wireHook, where string, path []any) (c hooks.Command, skip string, err error) {
	switch h.Type {
	case hooks.TypeCommand, "":
		if strings.TrimSpace(h.Command) == "" {
			return c, "", at(pf.file, data, where+": command is empty", path...)
		}
		c = hooks.Command{Command: h.Command}
	case hooks.TypePrompt:
		if !hooks.PromptEvent(e) {
			return c, fmt.Sprintf("is a prompt hook, which %s events cannot have (there is no conversation to judge; Claude Code refuses it too); it is skipped: use a command hook", e), nil
		}
		if strings.TrimSpace(h.Prompt) == "" {
			return c, "", at(pf.file, data, where+`: a prompt hook needs a non-empty "prompt" (the question the model answers; $ARGUMENTS stands for the hook input)`, path...)
		}
		c = hooks.Command{Type: hooks.TypePrompt, Prompt: h.Prompt, Model: strings.TrimSpace(h.Model), ContinueOnBlock: h.ContinueOnBlock}
	default:
		return c, fmt.Sprintf("has type %q; toolpipe runs command and prompt hooks and skips it", h.Type), nil
	}
	if h.Timeout != nil {
		if *h.Timeout <= 0 {
			return c, "", at(pf.file, data, fmt.Sprintf("%s: timeout must be a positive number of seconds, not %v", where, *h.Timeout), append(path, "timeout")...)
		}
		c.Timeout = *h.Timeout
	}
	return c, "", nil
}

// parsePermissions parses the rules (a rule for a tool toolpipe does not have is
// skipped with a warning: settings written for Claude Code name Task, WebSearch and
// others), the mode, and makes additional directories absolute.
func (pf *parsedFile) parsePermissions(data []byte, w *wirePermissions, projectDir string) error {
	p := &pf.perms
	p.Set = true
	for _, list := range []struct {
		key   string
		rules []string
		dst   *[]permissions.Rule
	}{{"allow", w.Allow, &p.Allow}, {"deny", w.Deny, &p.Deny}, {"ask", w.Ask, &p.Ask}} {
		for i, text := range list.rules {
			r, err := permissions.ParseRuleFor(text, pf.tools)
			if errors.Is(err, permissions.ErrUnknownTool) {
				pf.warnings = append(pf.warnings, at(pf.file, data, fmt.Sprintf("permissions.%s[%d]: %v; the rule is ignored", list.key, i, err), "permissions", list.key, i).Error())
				continue
			}
			if err != nil {
				return at(pf.file, data, fmt.Sprintf("permissions.%s[%d]: %v", list.key, i, err), "permissions", list.key, i)
			}
			*list.dst = append(*list.dst, r)
		}
	}
	if w.DefaultMode != "" {
		m, err := permissions.ParseMode(w.DefaultMode)
		if err != nil {
			return at(pf.file, data, "permissions.defaultMode: "+err.Error(), "permissions", "defaultMode")
		}
		p.DefaultMode, p.HasMode = m, true
	}
	for i, d := range w.AdditionalDirectories {
		abs, err := absDir(d, projectDir)
		if err != nil {
			return at(pf.file, data, fmt.Sprintf("permissions.additionalDirectories[%d]: %v", i, err), "permissions", "additionalDirectories", i)
		}
		p.AdditionalDirectories = append(p.AdditionalDirectories, abs)
	}
	return nil
}

// absDir makes a directory of the settings absolute: ~ is the home directory and a
// relative path is taken from the project directory.
func absDir(d, projectDir string) (string, error) {
	switch {
	case strings.TrimSpace(d) == "":
		return "", errors.New("empty directory")
	case d == "~" || strings.HasPrefix(d, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("%q: no home directory: %w", d, err)
		}
		return filepath.Join(home, d[1:]), nil
	case filepath.IsAbs(d):
		return filepath.Clean(d), nil
	case projectDir == "":
		return "", fmt.Errorf("%q is relative and there is no project directory", d)
	}
	return filepath.Join(projectDir, d), nil
}
