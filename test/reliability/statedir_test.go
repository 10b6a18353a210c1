package reliability

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// TestStateDirUnwritableWhilePersisting: a Bash output over its threshold (30,000
// bytes) must be persisted under <state>/<session>/tool-results/. When that cannot
// be written the result is the first 30,000 bytes with a note saying why, the turn
// completes, and the worker goes on. Each subtest breaks the directory another way:
//   - blocked: a regular file where the directory should be (works as any user);
//   - full: a 64 KiB tmpfs mounted there (ENOSPC mid-write; needs root);
//   - read-only: a read-only tmpfs mounted there as root (EROFS), or chmod 0555
//     as another user (EACCES).
//
// And when the session directory itself is blocked, a Bash call cannot even create
// its output file: it gets a clear error and its command never runs.
func TestStateDirUnwritableWhilePersisting(t *testing.T) {
	e := newEnv(t)
	e.inProcessWorker()
	resultsDir := func(session string) string {
		d := filepath.Join(e.state, session, "tool-results")
		if err := os.MkdirAll(filepath.Dir(d), 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	truncatedTurn := func(t *testing.T, session, why string) {
		t.Helper()
		work := t.TempDir()
		var res workflows.TurnResult
		run := e.start("persist-"+session, workflows.TurnInput{SessionID: session, Workdir: work, CloseIntake: true,
			Blocks: []tool.Block{bash("big", "seq 1 30000"), bash("after", "echo after")}})
		if err := run.Get(testenv.Context(t), &res); err != nil {
			t.Fatalf("turn: %v", err)
		}
		if len(res.Results) != 2 {
			t.Fatalf("results %+v", res.Results)
		}
		r := res.Results[0]
		if r.IsError || !strings.HasPrefix(r.Content, "1\n2\n3\n") || !strings.Contains(r.Content, "[output truncated at 30000 bytes of 168894: could not persist the full output: ") ||
			!strings.Contains(r.Content, why) {
			t.Errorf("result: ...%q, want a truncated output with a note naming %q", r.Content[max(0, len(r.Content)-300):], why)
		}
		if r := res.Results[1]; r.IsError || r.Content != "after" {
			t.Errorf("the next call: %+v", r)
		}
	}
	mount := func(t *testing.T, dir, opts string) {
		t.Helper()
		if os.Geteuid() != 0 {
			t.Skip("mounting a tmpfs needs root")
		}
		os.MkdirAll(dir, 0o755)
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
			t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
		}
		t.Cleanup(func() { exec.Command("umount", dir).Run() })
	}

	t.Run("blocked", func(t *testing.T) {
		if err := os.WriteFile(resultsDir("blocked"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		truncatedTurn(t, "blocked", "not a directory")
	})
	t.Run("full", func(t *testing.T) {
		dir := resultsDir("full")
		mount(t, dir, "size=64k")
		truncatedTurn(t, "full", "no space left on device")
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("a partial file was left behind on the full filesystem: %v", entries)
		}
	})
	t.Run("read-only", func(t *testing.T) {
		dir := resultsDir("readonly")
		if os.Geteuid() == 0 {
			mount(t, dir, "ro,size=64k")
			truncatedTurn(t, "readonly", "read-only file system")
			return
		}
		os.Mkdir(dir, 0o555)
		truncatedTurn(t, "readonly", "permission denied")
	})
	t.Run("session dir blocked", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(e.state, "nosession"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		work := t.TempDir()
		var res workflows.TurnResult
		run := e.start("nosession", workflows.TurnInput{SessionID: "nosession", Workdir: work, CloseIntake: true,
			Blocks: []tool.Block{bash("w", "echo ran > marker")}})
		if err := run.Get(testenv.Context(t), &res); err != nil {
			t.Fatalf("turn: %v", err)
		}
		if r := res.Results[0]; !r.IsError || !strings.Contains(r.Content, "scratch dir") || !strings.Contains(r.Content, "not a directory") {
			t.Errorf("result %+v, want a clear error", r)
		}
		if _, err := os.Stat(filepath.Join(work, "marker")); err == nil {
			t.Error("the command ran although its output could not be kept")
		}
	})
	e.healthy()
}
