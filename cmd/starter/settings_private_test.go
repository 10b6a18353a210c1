package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/config"
)

// The state directory (the server's database, every session's outputs) is
// private in the turn's policy: no read-only command reads there without
// approval, even when it lies inside the working directory (issue 24).
func TestTurnSettingsMakeTheStateDirPrivate(t *testing.T) {
	work, _ := filepath.EvalSymlinks(t.TempDir())
	state := filepath.Join(work, ".local", "state", "toolpipe")
	file := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(file, []byte(`{}`), 0o644)
	s, err := turnSettings(config.Config{Workdir: work, StateDir: state, PermissionMode: "default", PermissionModeSet: true,
		Settings: file}, io.Discard)
	if err != nil || s == nil || s.Permissions == nil {
		t.Fatalf("settings %+v err %v", s, err)
	}
	if !slices.Contains(s.Permissions.PrivateDirs, state) {
		t.Fatalf("private dirs %v, want %s", s.Permissions.PrivateDirs, state)
	}
}

// A settings file's rule naming NotebookEdit, a built-in tool that is not in
// Claude Code's rule vocabulary of toolpipe's first tools, is kept, not skipped
// with a warning.
func TestTurnSettingsKeepNotebookEditRules(t *testing.T) {
	work := t.TempDir()
	file := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(file, []byte(`{"permissions":{"deny":["NotebookEdit"]}}`), 0o644)
	var warn strings.Builder
	s, err := turnSettings(config.Config{Workdir: work, StateDir: t.TempDir(), Settings: file}, &warn)
	if err != nil || s == nil || s.Permissions == nil || len(s.Permissions.Deny) != 1 || s.Permissions.Deny[0].Tool != "NotebookEdit" {
		t.Fatalf("settings %+v err %v; warnings %q", s, err, warn.String())
	}
}
