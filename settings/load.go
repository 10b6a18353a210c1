package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/toolpipe/toolpipe/hooks"
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
	Hooks       hooks.Config
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
		s.Hooks = hooks.Config{}
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
	for _, e := range hooks.Events {
		s.Hooks.Add(e, pf.hooks.Groups(e)...)
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
