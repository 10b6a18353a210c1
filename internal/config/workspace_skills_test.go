package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A workspace's skills are among its own files: the trust question and the notice
// name them, and a workspace with only skills is still asked about.
func TestWorkspaceFilesNameSkills(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".claude", "skills", "deploy"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "skills", "deploy", "SKILL.md"), []byte("Run make deploy.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := WorkspaceFiles(dir, false, true)
	if len(files) != 1 || files[0].Path != filepath.Join(dir, ".claude", "skills") ||
		!strings.Contains(strings.Join(files[0].Effects, ";"), "offer the model 1 skill(s) to follow (deploy)") {
		t.Fatalf("workspace files %+v", files)
	}
}
