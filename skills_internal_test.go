package toolpipe

import (
	"path/filepath"
	"slices"
	"testing"
)

// A workspace's .claude/skills are offered only when the workspace is trusted; the
// user's skills whenever Claude Code settings are read; none without settings.
func TestSkillDirsOnlyFromATrustedWorkspace(t *testing.T) {
	user, work := t.TempDir(), t.TempDir()
	if got := skillDirs(work, nil); got != nil {
		t.Errorf("no settings: %v", got)
	}
	want := []string{filepath.Join(user, "skills")}
	if got := skillDirs(work, &Settings{UserDir: user}); !slices.Equal(got, want) {
		t.Errorf("untrusted: %v, want %v", got, want)
	}
	want = append(want, filepath.Join(work, ".claude", "skills"))
	if got := skillDirs(work, &Settings{UserDir: user, TrustWorkspace: true}); !slices.Equal(got, want) {
		t.Errorf("trusted: %v, want %v", got, want)
	}
}
