package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/sandbox"
	"github.com/toolpipe/toolpipe/settings"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// What every turn of the session enforces, from Claude Code's options: the
// settings files of --setting-sources (all three by default; headless Claude Code
// trusts the workspace, and so does toolpipe-claude), --settings on top of them,
// --allowedTools and --disallowedTools as allow and deny rules, --tools as deny
// rules naming the built-in tools left out, --add-dir, the permission mode (always
// one: Claude Code always checks permissions), and the SDK's hooks.

// policyInput is what turnSettings needs besides the options.
type policyInput struct {
	workdir, stateDir, session string
	mode                       string
	sdkHooks                   hooks.Config
}

// turnSettings builds the settings; warnings are for stderr.
func turnSettings(o options, in policyInput) (*workflows.TurnSettings, []string, error) {
	sources := o.sources
	if sources == nil {
		sources = []string{"user", "project", "local"}
	}
	load := settings.LoadOptions{ProjectDir: in.workdir,
		TrustProject: slices.Contains(sources, "project") || slices.Contains(sources, "local"),
		Tools:        builtinTool}
	var warnings []string
	if load.TrustProject && !(slices.Contains(sources, "project") && slices.Contains(sources, "local")) {
		warnings = append(warnings, "--setting-sources: the project's .claude/settings.json and settings.local.json are read together")
	}
	if !slices.Contains(sources, "user") {
		load.UserDir = filepath.Join(in.stateDir, "claude", "no-user-settings") // never created: no user file
	}
	if in.mode != "" {
		load.UserMode = in.mode
	}
	s, err := settings.Load(load)
	if err != nil {
		return nil, nil, err
	}
	if o.settings != "" {
		file, err := settingsFile(o.settings, in.stateDir)
		if err != nil {
			return nil, nil, err
		}
		extra, err := settings.Load(settings.LoadOptions{File: file, ProjectDir: in.workdir, UserMode: in.mode, Tools: builtinTool})
		if err != nil {
			return nil, nil, err
		}
		s = layer(s, extra)
	}
	warnings = append(warnings, s.Warnings...)
	mode := in.mode
	if mode == "" && !s.Permissions.HasMode {
		mode = permissions.Default.String()
	}
	pol, err := s.Policy(settings.PolicyOptions{WorkDir: in.workdir, Mode: mode, PrivateDirs: []string{in.stateDir}})
	if err != nil {
		return nil, nil, err
	}
	for _, r := range o.allowed {
		rule, err := permissions.ParseRuleFor(r, builtinTool)
		if err != nil {
			return nil, nil, fmt.Errorf("--allowedTools %s: %w", r, err)
		}
		pol.Allow = append(pol.Allow, rule)
	}
	for _, r := range o.disallowed {
		rule, err := permissions.ParseRuleFor(r, builtinTool)
		if err != nil {
			return nil, nil, fmt.Errorf("--disallowedTools %s: %w", r, err)
		}
		pol.Deny = append(pol.Deny, rule)
	}
	if o.toolsSet {
		for _, name := range append(activities.Builtins().Names(), tool.TaskName) {
			if !slices.Contains(o.tools, name) {
				rule, err := permissions.ParseRuleFor(name, builtinTool)
				if err != nil {
					return nil, nil, err
				}
				pol.Deny = append(pol.Deny, rule)
			}
		}
	}
	for _, d := range o.addDirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, nil, fmt.Errorf("--add-dir %s: %w", d, err)
		}
		if r, err := settings.Resolve(abs); err == nil {
			pol.AdditionalDirs = append(pol.AdditionalDirs, r)
		}
		pol.AdditionalDirs = append(pol.AdditionalDirs, abs)
	}
	sb, err := sandbox.Load(s.Files, in.workdir)
	if err != nil {
		return nil, nil, err
	}
	h := s.Hooks
	for _, e := range hooks.Events {
		h.Add(e, in.sdkHooks.Groups(e)...)
	}
	return &workflows.TurnSettings{Hooks: h, Permissions: pol, ProjectDir: in.workdir, Sandbox: sb,
		TranscriptPath: hooks.TranscriptPath(in.stateDir, in.session)}, warnings, nil
}

// layer puts top's settings over base's, as Claude Code's --settings adds to the
// files it reads: hooks of both, rules of both, top's mode when it sets one.
func layer(base, top settings.Settings) settings.Settings {
	out := base
	for _, e := range hooks.Events {
		out.Hooks.Add(e, top.Hooks.Groups(e)...)
	}
	p := &out.Permissions
	p.Allow = append(slices.Clone(p.Allow), top.Permissions.Allow...)
	p.Deny = append(slices.Clone(p.Deny), top.Permissions.Deny...)
	p.Ask = append(slices.Clone(p.Ask), top.Permissions.Ask...)
	p.AdditionalDirectories = append(slices.Clone(p.AdditionalDirectories), top.Permissions.AdditionalDirectories...)
	if top.Permissions.HasMode {
		p.DefaultMode, p.HasMode = top.Permissions.DefaultMode, true
	}
	p.Set = p.Set || top.Permissions.Set
	out.Files = append(slices.Clone(base.Files), top.Files...)
	out.Warnings = append(slices.Clone(base.Warnings), top.Warnings...)
	return out
}

// settingsFile is --settings as a file: the file it names, or its JSON object
// written to the state directory (settings are read from files).
func settingsFile(v, stateDir string) (string, error) {
	t := strings.TrimSpace(v)
	if !strings.HasPrefix(t, "{") {
		if _, err := os.Stat(v); err != nil {
			return "", fmt.Errorf("--settings: %w", err)
		}
		return v, nil
	}
	if !json.Valid([]byte(t)) {
		return "", fmt.Errorf("--settings: the JSON object does not parse")
	}
	sum := sha256.Sum256([]byte(t))
	path := filepath.Join(stateDir, "claude", "settings", hex.EncodeToString(sum[:8])+".json")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, []byte(t), 0o600)
}

// builtinTool reports whether name is one of toolpipe's built-in tools, which
// rules and --tools may name beside Claude Code's first ones (NotebookEdit).
func builtinTool(name string) bool {
	_, ok := activities.Builtins().Lookup(name)
	return ok
}
