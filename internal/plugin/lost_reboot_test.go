package plugin

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/internal/statedir"
	"go.temporal.io/server/temporaltest"
)

// deadWorkerDir writes what a worker of kernel boot leaves in state: its owner, a
// running attempt (a token the server no longer knows) and the group of a tool,
// recorded as pid's.
func deadWorkerDir(t *testing.T, state, name, namespace, boot string, pid int) string {
	t.Helper()
	dir := filepath.Join(statedir.Dir(state).Workers(), name)
	for _, sub := range []string{"running", groupsDir} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	st, err := readProcStat(pid)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]any{
		"owner.json":                       owner{PID: 999999, Host: "h", BootID: boot, TaskQueue: "q", StartedAt: time.Now()},
		filepath.Join("running", "a.json"): record{Namespace: namespace, WorkflowID: "gone", ActivityID: "1", TaskToken: []byte("not a token")},
		filepath.Join(groupsDir, "g.json"): group{PGID: pid, Start: st.start},
	}
	for name, v := range files {
		b, _ := json.Marshal(v)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "lock"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A directory left by a worker of a kernel that is gone (the machine rebooted) is
// swept on a local file system, without killing the processes its recorded group
// numbers name now; on a shared file system that worker may be alive elsewhere and
// its directory stays. A directory a worker died creating goes once it is old.
func TestSweepAfterReboot(t *testing.T) {
	sleeper := exec.Command("sleep", "300")
	sleeper.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if sleeper.ProcessState == nil { // the test failed before it reaped it
			_ = syscall.Kill(-sleeper.Process.Pid, syscall.SIGKILL)
			_ = sleeper.Wait()
		}
	})
	srv := temporaltest.NewServer(temporaltest.WithT(t))
	c := srv.GetDefaultClient()
	log := slog.New(slog.DiscardHandler)

	state := t.TempDir()
	old := deadWorkerDir(t, state, "1-old", srv.GetDefaultNamespace(), "a-boot-before-this-one", sleeper.Process.Pid)
	abandoned := filepath.Join(statedir.Dir(state).Workers(), ".new-old")
	fresh := filepath.Join(statedir.Dir(state).Workers(), ".new-fresh")
	for _, d := range []string{abandoned, fresh} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-2 * abandonedAfter)
	if err := os.Chtimes(abandoned, long, long); err != nil {
		t.Fatal(err)
	}

	shared := onSharedFS
	t.Cleanup(func() { onSharedFS = shared })
	onSharedFS = func(string) bool { return true }
	if _, again := sweepOnce(context.Background(), state, c, log); again {
		t.Fatal("the sweep wants to try again")
	}
	if _, err := os.Stat(old); err != nil {
		t.Fatalf("on a shared file system another kernel's worker directory was removed: %v", err)
	}
	if _, err := os.Stat(abandoned); err != nil {
		t.Fatalf("on a shared file system a directory another machine may be creating was removed: %v", err)
	}

	onSharedFS = func(string) bool { return false }
	if _, again := sweepOnce(context.Background(), state, c, log); again {
		t.Fatal("the sweep wants to try again")
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("a worker directory of a kernel gone since is still there on a local file system (%v)", err)
	}
	if _, err := os.Stat(abandoned); !os.IsNotExist(err) {
		t.Fatalf("an old half-created worker directory is still there (%v)", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Fatalf("a worker directory being created was removed: %v", err)
	}
	// Had the sweep killed it, SIGKILL would be its end: a SIGTERM sent after a
	// SIGKILL is dropped by the kernel.
	if err := syscall.Kill(sleeper.Process.Pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = sleeper.Wait()
	if ws := sleeper.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Fatalf("the process a dead kernel's group number names now ended with %v, want our SIGTERM: the sweep killed it", sleeper.ProcessState)
	}
}
