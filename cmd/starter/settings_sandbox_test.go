package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/config"
)

// The sandbox section of the settings reaches the turn, even without permissions
// or hooks; a malformed one is bad input naming the file.
func TestTurnSettingsCarrySandbox(t *testing.T) {
	work := t.TempDir()
	file := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(file, []byte(`{"sandbox": {"enabled": true, "filesystem": {"denyRead": ["secrets"]}}}`), 0o644)
	s, err := turnSettings(config.Config{Workdir: work, Settings: file}, io.Discard)
	if err != nil || s == nil || !s.Sandbox.On() || len(s.Sandbox.Filesystem.DenyRead) != 1 || s.Sandbox.Filesystem.DenyRead[0] != filepath.Join(work, "secrets") {
		t.Fatalf("settings %+v err %v", s, err)
	}
	os.WriteFile(file, []byte(`{"sandbox": {"enabled": "yes"}}`), 0o644)
	if _, err := turnSettings(config.Config{Workdir: work, Settings: file}, io.Discard); err == nil || !strings.Contains(err.Error(), "settings.json") {
		t.Fatalf("malformed: %v", err)
	}
}
