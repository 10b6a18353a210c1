package workflows_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// bareRepo makes a bare repository whose tag v1 has README "first" and whose
// default branch has README "second".
func bareRepo(t *testing.T) string {
	t.Helper()
	src, bare := t.TempDir(), filepath.Join(t.TempDir(), "repo.git")
	run := func(dir string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run(src, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(src, "README"), []byte("first\n"), 0o644)
	run(src, "add", "README")
	run(src, "commit", "-q", "-m", "one")
	run(src, "tag", "v1")
	os.WriteFile(filepath.Join(src, "README"), []byte("second\n"), 0o644)
	run(src, "commit", "-q", "-am", "two")
	run(src, "clone", "-q", "--bare", src, bare)
	return bare
}

// Issue 26 item 3: a session started with Repo URL@REF finds the repository cloned
// at REF in its working directory (which did not exist) before its first turn; the
// same session resumed keeps its clone.
func TestSessionClonesItsRepository(t *testing.T) {
	h := newIdleAgentHarness(t)
	work := filepath.Join(t.TempDir(), "checkout")
	h.runScript(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{use("r1", "Read", map[string]any{"file_path": filepath.Join(work, "README")})}},
		{Content: []wire.Block{text("Read it.")}},
		{Content: []wire.Block{use("w1", "Write", map[string]any{"file_path": filepath.Join(work, "NOTES"), "content": "mine\n"})}},
		{Content: []wire.Block{text("Again.")}},
	}})
	repo := "file://" + bareRepo(t) + "@v1"
	run := h.start(workflows.SessionInput{SessionID: "cloned", Prompt: "read it", Workdir: work, Repo: repo, Options: fastOptions()})
	if res := h.result(run); res.Text != "Read it." {
		t.Fatalf("session: %+v", res)
	}
	if b, err := os.ReadFile(filepath.Join(work, "README")); err != nil || string(b) != "first\n" {
		t.Fatalf("README = %q %v, want v1's", b, err)
	}
	if reqs := h.fake.Requests(); len(reqs) < 2 || !strings.Contains(string(reqs[1].Body), "first") {
		t.Errorf("the model did not read the clone")
	}
	// Resumed: the clone, and what the session added to it, stay.
	run = h.start(workflows.SessionInput{SessionID: "cloned", Prompt: "again", Workdir: work, Repo: repo, Options: fastOptions()})
	if res := h.result(run); res.Text != "Again." {
		t.Fatalf("resumed session: %+v", res)
	}
	if b, err := os.ReadFile(filepath.Join(work, "NOTES")); err != nil || string(b) != "mine\n" {
		t.Errorf("NOTES = %q %v", b, err)
	}
}
