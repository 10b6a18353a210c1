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
	// TrustProject says the user trusts the project directory (internal/config
	// decides, trust.go): only then do its .claude/settings.json and
	// settings.local.json take effect. Otherwise they are skipped (Skipped).
	TrustProject bool
	// UserMode is the permission mode the user chose on the command line, in the
	// environment or in their own configuration ("" for none); ProjectMode is the
	// one of the project's toolpipe.yaml (a trusted workspace's). A project's mode
	// (ProjectMode, a project file's defaultMode) applies only when it does not
	// raise the user's (UserMode, else the user's settings' defaultMode, else
	// default); otherwise it is left out with a warning.
	UserMode, ProjectMode string
	// Tools reports the tools of the worker's registry beyond Claude Code's rule
	// vocabulary (a program's own, later built-in ones such as NotebookEdit): rules
	// may name them whole. nil knows none of them, and a rule naming one is
	// skipped with a warning, as a rule for a tool toolpipe does not have.
	Tools func(name string) bool
}

// Settings is the merged result of the settings files.
type Settings struct {
	Hooks       hooks.Config
	Permissions Permissions
	// Files are the files read, lowest precedence first.
	Files []string
	// Warnings are parts of the files that toolpipe ignores (other hook events,
	// hook types other than command, rules for tools it does not have, a project's
	// permission mode that would raise the user's).
	Warnings []string
	// Skipped are the project's settings files that exist but were not read: the
	// workspace is not trusted (LoadOptions.TrustProject).
	Skipped []string
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

	// projectMode is the defaultMode of the highest project file that sets one
	// (in projectModeFile); it applies only as capProjectMode allows.
	projectMode     permissions.Mode
	hasProjectMode  bool
	projectModeFile string
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
	project := map[string]bool{}
	var s Settings
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
		for _, rel := range ProjectFiles {
			if opts.ProjectDir == "" {
				break
			}
			f := filepath.Join(opts.ProjectDir, rel)
			if !opts.TrustProject {
				if _, err := os.Stat(f); err == nil {
					s.Skipped = append(s.Skipped, f)
				}
				continue
			}
			files = append(files, f)
			project[f] = true
		}
	}
	disabled := false
	for _, f := range files {
		data, err := os.ReadFile(f)
		if errors.Is(err, fs.ErrNotExist) && opts.File == "" {
			continue
		}
		if err != nil {
			return Settings{}, fmt.Errorf("settings: %w", err)
		}
		pf, err := parseFile(f, data, opts.ProjectDir, opts.Tools)
		if err != nil {
			return Settings{}, fmt.Errorf("settings: %w", err)
		}
		s.merge(pf, project[f])
		disabled = disabled || pf.disableAllHooks
	}
	if disabled {
		s.Hooks = hooks.Config{}
	}
	if err := s.capProjectMode(opts); err != nil {
		return Settings{}, err
	}
	return s, nil
}

// capProjectMode applies the project's permission modes, lowest precedence first
// (its settings files' defaultMode, then its toolpipe.yaml), each only when it
// does not raise the mode the user chose: a repository can make its agent more
// careful, never less.
func (s *Settings) capProjectMode(opts LoadOptions) error {
	p := &s.Permissions
	user, whose := permissions.Default, "the mode when you choose none"
	switch {
	case opts.UserMode != "":
		m, err := permissions.ParseMode(opts.UserMode)
		if err != nil {
			return fmt.Errorf("settings: %w", err)
		}
		user, whose = m, "the mode you chose"
	case p.HasMode:
		user, whose = p.DefaultMode, "the mode of your own settings"
	}
	type candidate struct {
		mode permissions.Mode
		from string
	}
	var cands []candidate
	if p.hasProjectMode {
		cands = append(cands, candidate{p.projectMode, p.projectModeFile + " (permissions.defaultMode)"})
	}
	if opts.ProjectMode != "" {
		m, err := permissions.ParseMode(opts.ProjectMode)
		if err != nil {
			return fmt.Errorf("settings: the project's toolpipe.yaml: %w", err)
		}
		cands = append(cands, candidate{m, "the workspace's toolpipe.yaml (permission-mode)"})
	}
	for _, c := range cands {
		if c.mode.Raises(user) {
			s.Warnings = append(s.Warnings, fmt.Sprintf("%s asks for the permission mode %s, which would let more run without approval than %s, "+
				"%s; a workspace's own files can lower the mode but never raise it, so it is not applied "+
				"(to choose it yourself: --permission-mode %s, TOOLPIPE_PERMISSION_MODE, or permission-mode in ~/.config/toolpipe/toolpipe.yaml)",
				c.from, c.mode, user, whose, c.mode))
			p.Set = true // the project asked for permission checks: they stay on, in the user's mode
			continue
		}
		p.DefaultMode, p.HasMode, p.Set = c.mode, true, true
	}
	return nil
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

// merge adds a file of higher precedence than those merged so far; project says
// it is one of the project's own files.
func (s *Settings) merge(pf parsedFile, project bool) {
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
	switch {
	case pf.perms.HasMode && project:
		p.projectMode, p.hasProjectMode, p.projectModeFile = pf.perms.DefaultMode, true, pf.file
	case pf.perms.HasMode:
		p.DefaultMode, p.HasMode = pf.perms.DefaultMode, true
	}
	p.Set = p.Set || pf.perms.Set
}
