package toolpipe

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The state directory (the server's database, every session's outputs) is
// private in the turn's policy: no read-only command reads there without
// approval, even when it lies inside the working directory (issue 24).
func TestTurnSettingsMakeTheStateDirPrivate(t *testing.T) {
	work, _ := filepath.EvalSymlinks(t.TempDir())
	state := filepath.Join(work, ".local", "state", "toolpipe")
	file := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(file, []byte(`{}`), 0o644)
	c := NewClient(nil, "q", WithStateDir(state))
	s, err := c.loadSettings("s", work, Settings{File: file, Mode: "default"}, func(string) {})
	if err != nil || s == nil || s.Permissions == nil {
		t.Fatalf("settings %+v err %v", s, err)
	}
	if !slices.Contains(s.Permissions.PrivateDirs, state) {
		t.Fatalf("private dirs %v, want %s", s.Permissions.PrivateDirs, state)
	}
}

// The sandbox section of the settings reaches the turn, even without permissions
// or hooks; a malformed one is invalid input naming the file.
func TestTurnSettingsCarrySandbox(t *testing.T) {
	work := t.TempDir()
	file := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(file, []byte(`{"sandbox": {"enabled": true, "filesystem": {"denyRead": ["secrets"]}}}`), 0o644)
	c := NewClient(nil, "q")
	s, err := c.loadSettings("s", work, Settings{File: file}, func(string) {})
	if err != nil || s == nil || !s.Sandbox.On() || len(s.Sandbox.Filesystem.DenyRead) != 1 || s.Sandbox.Filesystem.DenyRead[0] != filepath.Join(work, "secrets") {
		t.Fatalf("settings %+v err %v", s, err)
	}
	os.WriteFile(file, []byte(`{"sandbox": {"enabled": "yes"}}`), 0o644)
	if _, err := c.loadSettings("s", work, Settings{File: file}, func(string) {}); err == nil || !strings.Contains(err.Error(), "settings.json") || !IsInvalidInput(err) {
		t.Fatalf("malformed: %v", err)
	}
}
