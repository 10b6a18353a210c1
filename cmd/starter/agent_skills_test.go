package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/spf13/pflag"

	"github.com/toolpipe/toolpipe/internal/config"
)

// A workspace's .claude/skills are its own files: a session offers them only when
// the workspace is trusted; the user's ~/.claude/skills always.
func TestSkillDirsOnlyFromATrustedWorkspace(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("TOOLPIPE_TRUST", "")
	if err := os.MkdirAll(filepath.Join(work, ".claude", "skills", "deploy"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, ".claude", "skills", "deploy", "SKILL.md"), []byte("Run make deploy.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(work, ".claude", "skills")
	for _, trust := range []string{"false", "true"} {
		fs := pflag.NewFlagSet("agent", pflag.ContinueOnError)
		config.AddFlags(fs, config.KeyStateDir, config.KeyWorkdir, config.KeyTrust, config.KeySettings)
		if err := fs.Parse([]string{"--state-dir", filepath.Join(home, "state"), "--workdir", work, "--trust=" + trust}); err != nil {
			t.Fatal(err)
		}
		cfg, _, err := config.Load(fs, "")
		if err != nil {
			t.Fatal(err)
		}
		dirs := skillDirs(cfg, io.Discard)
		if !slices.Contains(dirs, filepath.Join(home, ".claude", "skills")) {
			t.Errorf("trust %s: %v lacks the user's skills", trust, dirs)
		}
		if got := slices.Contains(dirs, project); got != (trust == "true") {
			t.Errorf("trust %s: workspace skills offered: %v (%v)", trust, got, dirs)
		}
	}
}
