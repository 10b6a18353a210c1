package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolpipe/toolpipe/permissions"
)

// LoadOptions say where settings come from.
type LoadOptions struct {
	// File is --settings: when set, it is the only settings file, and it must
	// exist.
	File string
	// ProjectDir holds .claude/settings.json and .claude/settings.local.json.
	ProjectDir string
	// UserDir holds the user's settings.json; "" means $CLAUDE_CONFIG_DIR, else
	// ~/.claude, as in Claude Code.
	UserDir string
}

// Settings is the merged result of the settings files.
type Settings struct {
	Hooks       Config
	Permissions Permissions
	// Files are the files read, lowest precedence first.
	Files []string
	// Warnings are parts of the files that toolpipe ignores (other hook events,
	// hook types other than command, rules for tools it does not have).
	Warnings []string
}

// Permissions is the merged permissions section.
type Permissions struct {
	Allow, Deny, Ask []permissions.Rule
	// DefaultMode is the mode of the highest file that sets one; HasMode says
	// whether any does.
	DefaultMode permissions.Mode
	HasMode     bool
	// AdditionalDirectories are absolute (relative ones are taken from the
	// project directory, ~ from the home directory), not yet resolved.
	AdditionalDirectories []string
	// Set reports whether any file has a permissions section.
	Set bool
}

// Load reads the settings files and merges them with Claude Code's precedence:
// the project's .claude/settings.local.json over .claude/settings.json over the
// user's settings.json. Lists concatenate (hooks, allow/deny/ask rules, additional
// directories; lowest precedence first) and defaultMode comes from the highest file
// that sets it. disableAllHooks in any file turns every hook off. Missing files are
// skipped, except an explicit File. Unknown fields are ignored; a malformed file is
// a *FileError naming the file, line and column.
func Load(opts LoadOptions) (Settings, error) {
	var files []string
	if opts.File != "" {
		files = []string{opts.File}
	} else {
		user := opts.UserDir
		if user == "" {
			user = defaultUserDir()
		}
		if user != "" {
			files = append(files, filepath.Join(user, "settings.json"))
		}
		if opts.ProjectDir != "" {
			files = append(files,
				filepath.Join(opts.ProjectDir, ".claude", "settings.json"),
				filepath.Join(opts.ProjectDir, ".claude", "settings.local.json"))
		}
	}
	var s Settings
	disabled := false
	for _, f := range files {
		data, err := os.ReadFile(f)
		if errors.Is(err, fs.ErrNotExist) && opts.File == "" {
			continue
		}
		if err != nil {
			return Settings{}, fmt.Errorf("settings: %w", err)
		}
		pf, err := parseFile(f, data, opts.ProjectDir)
		if err != nil {
			return Settings{}, fmt.Errorf("settings: %w", err)
		}
		s.merge(pf)
		disabled = disabled || pf.disableAllHooks
	}
	if disabled {
		s.Hooks = Config{}
	}
	return s, nil
}

func defaultUserDir() string {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".claude")
}

// merge adds a file of higher precedence than those merged so far.
func (s *Settings) merge(pf parsedFile) {
	s.Files = append(s.Files, pf.file)
	s.Warnings = append(s.Warnings, pf.warnings...)
	for _, e := range Events {
		s.Hooks.add(e, pf.hooks.Groups(e))
	}
	p := &s.Permissions
	p.Allow = append(p.Allow, pf.perms.Allow...)
	p.Deny = append(p.Deny, pf.perms.Deny...)
	p.Ask = append(p.Ask, pf.perms.Ask...)
	for _, d := range pf.perms.AdditionalDirectories {
		if !slices.Contains(p.AdditionalDirectories, d) {
			p.AdditionalDirectories = append(p.AdditionalDirectories, d)
		}
	}
	if pf.perms.HasMode {
		p.DefaultMode, p.HasMode = pf.perms.DefaultMode, true
	}
	p.Set = p.Set || pf.perms.Set
}

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
	wireHooks struct {
		Hooks struct {
			PreToolUse         []wireGroup `json:"PreToolUse"`
			PostToolUse        []wireGroup `json:"PostToolUse"`
			PostToolUseFailure []wireGroup `json:"PostToolUseFailure"`
		} `json:"hooks"`
	}
	wireGroup struct {
		Matcher string     `json:"matcher"`
		Hooks   []wireHook `json:"hooks"`
	}
	wireHook struct {
		Type    string   `json:"type"`
		Command string   `json:"command"`
		Timeout *float64 `json:"timeout"`
	}
)

type parsedFile struct {
	file            string
	hooks           Config
	perms           Permissions
	disableAllHooks bool
	warnings        []string
}

// parseFile decodes one settings file and checks what toolpipe uses of it.
func parseFile(file string, data []byte, projectDir string) (parsedFile, error) {
	pf := parsedFile{file: file}
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
		if slices.Contains(Events, Event(name)) {
			continue
		}
		for _, e := range Events {
			if strings.EqualFold(name, string(e)) {
				return at(pf.file, data, fmt.Sprintf("hooks.%s: event names are case-sensitive; did you mean %s?", name, e), "hooks", name)
			}
		}
		pf.warnings = append(pf.warnings, fmt.Sprintf("%s: hooks.%s is not a tool event; toolpipe ignores it", pf.file, name))
	}
	var w wireHooks
	if err := json.Unmarshal(data, &w); err != nil {
		return decodeError(pf.file, data, err)
	}
	for _, e := range Events {
		var wgs []wireGroup
		switch e {
		case PreToolUse:
			wgs = w.Hooks.PreToolUse
		case PostToolUse:
			wgs = w.Hooks.PostToolUse
		case PostToolUseFailure:
			wgs = w.Hooks.PostToolUseFailure
		}
		gs, err := pf.groups(data, e, wgs)
		if err != nil {
			return err
		}
		pf.hooks.add(e, gs)
	}
	return nil
}

// groups checks one event's groups: matchers compile, commands are not empty,
// timeouts are positive. Hooks of other types are skipped with a warning.
func (pf *parsedFile) groups(data []byte, e Event, wgs []wireGroup) ([]Group, error) {
	var out []Group
	for i, wg := range wgs {
		if err := CheckMatcher(wg.Matcher); err != nil {
			return nil, at(pf.file, data, fmt.Sprintf("hooks.%s[%d]: %v", e, i, err), "hooks", string(e), i, "matcher")
		}
		g := Group{Matcher: wg.Matcher}
		for j, h := range wg.Hooks {
			where := fmt.Sprintf("hooks.%s[%d].hooks[%d]", e, i, j)
			path := []any{"hooks", string(e), i, "hooks", j}
			if h.Type != "command" && h.Type != "" {
				pf.warnings = append(pf.warnings, fmt.Sprintf("%s: %s has type %q; toolpipe runs only command hooks and skips it", pf.file, where, h.Type))
				continue
			}
			if strings.TrimSpace(h.Command) == "" {
				return nil, at(pf.file, data, where+": command is empty", path...)
			}
			c := Command{Command: h.Command}
			if h.Timeout != nil {
				if *h.Timeout <= 0 {
					return nil, at(pf.file, data, fmt.Sprintf("%s: timeout must be a positive number of seconds, not %v", where, *h.Timeout), append(path, "timeout")...)
				}
				c.Timeout = *h.Timeout
			}
			g.Hooks = append(g.Hooks, c)
		}
		if len(g.Hooks) > 0 {
			out = append(out, g)
		}
	}
	return out, nil
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
			r, err := permissions.ParseRule(text)
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
