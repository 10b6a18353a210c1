package devserver

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecondStartIsRefused runs two Starts on one directory in one process;
// flock locks belong to the open file, so this is refused just as a second
// process would be.
func TestSecondStartIsRefused(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, Config{StateDir: dir})

	_, err := Start(context.Background(), Config{StateDir: dir, Logger: testLogger(t)})
	if !errors.Is(err, ErrStateDirInUse) {
		t.Fatalf("second Start: %v, want ErrStateDirInUse", err)
	}
	var inUse *StateDirInUseError
	if !errors.As(err, &inUse) {
		t.Fatalf("second Start error %T does not unwrap to *StateDirInUseError", err)
	}
	if inUse.PID != os.Getpid() || inUse.Info.FrontendAddress != s.FrontendAddress() {
		t.Errorf("in-use error reports pid %d at %q, want pid %d at %q",
			inUse.PID, inUse.Info.FrontendAddress, os.Getpid(), s.FrontendAddress())
	}
	for _, want := range []string{dir, s.FrontendAddress(), "stop it"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}

	info, ok := Running(dir)
	if !ok {
		t.Fatal("Running = false while the server runs")
	}
	if info.FrontendAddress != s.FrontendAddress() || info.Namespace != s.Namespace() || info.PID != os.Getpid() {
		t.Errorf("Running = %+v, want the first server (%s, %s, pid %d)",
			info, s.FrontendAddress(), s.Namespace(), os.Getpid())
	}
}

func TestRunningWithoutServer(t *testing.T) {
	if info, ok := Running(t.TempDir()); ok {
		t.Errorf("Running on an empty dir = %+v, want false", info)
	}
}

// TestOtherProcessAndCrash checks the lock across processes, and that a
// server.json left by a process that died without cleaning up is not
// mistaken for a live server.
func TestOtherProcessAndCrash(t *testing.T) {
	dir := t.TempDir()
	cmd := helperProcess(helperHold, dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "ready\n" {
		t.Fatalf("holder process: %q, %v", line, err)
	}

	info, ok := Running(dir)
	if !ok || info.PID != cmd.Process.Pid {
		t.Fatalf("Running = %+v, %v; want the holder, pid %d", info, ok, cmd.Process.Pid)
	}
	_, err = Start(context.Background(), Config{StateDir: dir, Logger: testLogger(t)})
	var inUse *StateDirInUseError
	if !errors.As(err, &inUse) || inUse.PID != cmd.Process.Pid || inUse.Info.FrontendAddress != info.FrontendAddress {
		t.Fatalf("Start while held elsewhere: %v, want in-use by pid %d at %s", err, cmd.Process.Pid, info.FrontendAddress)
	}

	// SIGKILL: no deferred cleanup runs, server.json stays behind.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if _, err := os.Stat(filepath.Join(dir, infoFileName)); err != nil {
		t.Fatalf("expected the killed holder's server.json to remain: %v", err)
	}
	if info, ok := Running(dir); ok {
		t.Errorf("Running after the holder died = %+v, want false", info)
	}
	// Wait reaped the holder, so the kernel has dropped its lock already.
	lock, err := lockStateDir(dir)
	if err != nil {
		t.Fatalf("lock not free after the holder died: %v", err)
	}
	_ = lock.release()
}
