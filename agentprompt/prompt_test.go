package agentprompt

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/internal/testfs"
)

// Memory files load from the user's, then the root down to the working directory;
// the environment names the directory, date and git branch.
func TestBuild(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	work := filepath.Join(root, "repo", "sub")
	testfs.Write(t, filepath.Join(home, ".claude", "CLAUDE.md"), "user memory")
	testfs.Write(t, filepath.Join(root, "repo", "CLAUDE.md"), "repo memory")
	testfs.Write(t, filepath.Join(work, ".claude", "CLAUDE.md"), "sub dot-claude memory")
	testfs.Write(t, filepath.Join(work, "CLAUDE.local.md"), "local memory")
	testfs.Write(t, filepath.Join(root, "repo", ".git", "HEAD"), "ref: refs/heads/feature/x\n")
	p := Build(Options{Workdir: work, Home: home, Now: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), Append: "extra words"})
	order := []string{Default[:40], "Working directory: " + work, "Today's date: 2026-11-30",
		"Git repository: yes, at " + filepath.Join(root, "repo") + ", on branch feature/x",
		"user memory", "repo memory", "sub dot-claude memory", "local memory", "extra words"}
	at := 0
	for _, w := range order {
		i := strings.Index(p[at:], w)
		if i < 0 {
			t.Fatalf("prompt lacks %q after position %d:\n%s", w, at, p)
		}
		at += i
	}
	if q := Build(Options{System: "mine", Workdir: t.TempDir()}); strings.Contains(q, Default[:40]) || !strings.HasPrefix(q, "mine") ||
		!strings.Contains(q, "Git repository: no") {
		t.Fatalf("--system prompt:\n%s", q)
	}
}
