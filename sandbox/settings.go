package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Settings are Claude Code's "sandbox" settings, merged over the settings files
// with their paths made absolute. Unset booleans take Claude Code's defaults
// (see the methods).
type Settings struct {
	Enabled                  *bool      `json:"enabled,omitempty"`
	FailIfUnavailable        *bool      `json:"failIfUnavailable,omitempty"`
	AutoAllowBashIfSandboxed *bool      `json:"autoAllowBashIfSandboxed,omitempty"`
	AllowUnsandboxedCommands *bool      `json:"allowUnsandboxedCommands,omitempty"`
	ExcludedCommands         []string   `json:"excludedCommands,omitempty"`
	Filesystem               Filesystem `json:"filesystem,omitzero"`
	Network                  Network    `json:"network,omitzero"`
}

// Filesystem lists paths the sandbox treats specially: writable besides the
// working directory, read-only even inside a writable one, and hidden.
type Filesystem struct {
	AllowWrite []string `json:"allowWrite,omitempty"`
	DenyWrite  []string `json:"denyWrite,omitempty"`
	DenyRead   []string `json:"denyRead,omitempty"`
}

// Network lists the domains sandboxed commands may reach, and whether they may
// use Unix sockets (blocked by default: the Docker daemon's or an ssh-agent's
// socket reaches past any sandbox).
type Network struct {
	AllowedDomains []string `json:"allowedDomains,omitempty"`
	// AllowUnixSockets are socket paths Claude Code allows on macOS; on Linux it
	// ignores them, as toolpipe does (a seccomp filter cannot tell paths apart).
	AllowUnixSockets []string `json:"allowUnixSockets,omitempty"`
	// AllowAllUnixSockets lifts the block on Unix sockets in the write sandbox
	// (the read-only sandbox of auto-allowed read-only commands keeps it).
	AllowAllUnixSockets *bool `json:"allowAllUnixSockets,omitempty"`
}

// On reports whether Bash runs sandboxed (sandbox.enabled; default false).
func (s *Settings) On() bool { return s != nil && s.Enabled != nil && *s.Enabled }

// UnixSocketsAllowed reports network.allowAllUnixSockets (default false).
func (s *Settings) UnixSocketsAllowed() bool {
	return s != nil && s.Network.AllowAllUnixSockets != nil && *s.Network.AllowAllUnixSockets
}

// MustSandbox reports failIfUnavailable: when the sandbox cannot start, a
// command fails instead of running unsandboxed (default false).
func (s *Settings) MustSandbox() bool {
	return s != nil && s.FailIfUnavailable != nil && *s.FailIfUnavailable
}

// AutoAllow reports autoAllowBashIfSandboxed (default true): a sandboxed command
// runs without approval unless a deny or ask rule matches it.
func (s *Settings) AutoAllow() bool {
	return s.On() && (s.AutoAllowBashIfSandboxed == nil || *s.AutoAllowBashIfSandboxed)
}

// UnsandboxedAllowed reports allowUnsandboxedCommands (default true): the Bash
// input dangerouslyDisableSandbox is honoured (the command then needs the usual
// permission); when false it is ignored.
func (s *Settings) UnsandboxedAllowed() bool {
	return s.AllowUnsandboxedCommands == nil || *s.AllowUnsandboxedCommands
}

// Sandboxed reports whether command runs in the sandbox: sandboxing is on, the
// command is not excluded, and it did not ask to run outside (disable, the
// dangerouslyDisableSandbox input) where that is allowed.
func (s *Settings) Sandboxed(command string, disable bool) bool {
	if !s.On() || disable && s.UnsandboxedAllowed() {
		return false
	}
	return !s.Excluded(command)
}

// Excluded reports whether command matches excludedCommands: a pattern "docker"
// (or "docker:*", or "docker *") matches a command that starts with the word
// docker; a longer pattern ("npm run e2e") matches that prefix.
func (s *Settings) Excluded(command string) bool {
	cmd := strings.TrimSpace(command)
	for _, p := range s.ExcludedCommands {
		p = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(p), ":*"), " *"))
		if p != "" && (cmd == p || strings.HasPrefix(cmd, p+" ")) {
			return true
		}
	}
	return false
}

// Load reads the "sandbox" section of the settings files (lowest precedence
// first, as settings.Settings.Files lists them) and merges them: a boolean comes
// from the highest file that sets it, lists concatenate. Relative paths are taken
// from projectDir, "~/" from the home directory, "//x" is "/x". It returns nil
// when no file has a sandbox section. A malformed section is an error naming the
// file.
func Load(files []string, projectDir string) (*Settings, error) {
	var merged *Settings
	for _, f := range files {
		data, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("sandbox settings: %w", err)
		}
		var doc struct {
			Sandbox *Settings `json:"sandbox"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("%s: sandbox: %v", f, err)
		}
		if doc.Sandbox == nil {
			continue
		}
		if merged == nil {
			merged = &Settings{}
		}
		if err := merged.merge(doc.Sandbox, projectDir); err != nil {
			return nil, fmt.Errorf("%s: sandbox: %w", f, err)
		}
	}
	return merged, nil
}

func (s *Settings) merge(o *Settings, projectDir string) error {
	for _, b := range []struct{ dst, src **bool }{{&s.Enabled, &o.Enabled}, {&s.FailIfUnavailable, &o.FailIfUnavailable},
		{&s.AutoAllowBashIfSandboxed, &o.AutoAllowBashIfSandboxed}, {&s.AllowUnsandboxedCommands, &o.AllowUnsandboxedCommands},
		{&s.Network.AllowAllUnixSockets, &o.Network.AllowAllUnixSockets}} {
		if *b.src != nil {
			*b.dst = *b.src
		}
	}
	s.ExcludedCommands = append(s.ExcludedCommands, o.ExcludedCommands...)
	s.Network.AllowedDomains = append(s.Network.AllowedDomains, o.Network.AllowedDomains...)
	s.Network.AllowUnixSockets = append(s.Network.AllowUnixSockets, o.Network.AllowUnixSockets...)
	for _, l := range []struct{ dst, src *[]string }{{&s.Filesystem.AllowWrite, &o.Filesystem.AllowWrite},
		{&s.Filesystem.DenyWrite, &o.Filesystem.DenyWrite}, {&s.Filesystem.DenyRead, &o.Filesystem.DenyRead}} {
		for _, p := range *l.src {
			abs, err := absPath(p, projectDir)
			if err != nil {
				return err
			}
			*l.dst = append(*l.dst, abs)
		}
	}
	return nil
}

// absPath makes a settings path absolute and clean.
func absPath(p, projectDir string) (string, error) {
	switch {
	case p == "":
		return "", errors.New("an empty path in filesystem; remove it or name a directory")
	case strings.HasPrefix(p, "//"):
		p = p[1:]
	case p == "~" || strings.HasPrefix(p, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("%q: no home directory: %v", p, err)
		}
		p = filepath.Join(home, p[1:])
	case !filepath.IsAbs(p):
		p = filepath.Join(projectDir, p)
	}
	return filepath.Clean(p), nil
}
