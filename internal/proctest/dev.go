package proctest

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// devReadyLine is what `starter dev` prints once its worker polls.
const devReadyLine = "Worker on task queue"

// StartDev starts a prepared `starter dev` command, waits until its worker polls
// (the line it prints then, not a clock), and stops it with SIGINT when the test
// ends (killing it if it has not exited 30 s later). Its stderr, unless the caller
// set it, is kept and shown when it fails to start.
func StartDev(t *testing.T, dev *exec.Cmd) {
	t.Helper()
	stdout, err := dev.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr LockedBuffer
	if dev.Stderr == nil {
		dev.Stderr = &stderr
	}
	if err := dev.Start(); err != nil {
		t.Fatal(err)
	}
	StopAtCleanup(t, dev, os.Interrupt)
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		found := false
		for sc.Scan() { // read to the end, so the process never blocks on a full pipe
			if !found && strings.HasPrefix(sc.Text(), devReadyLine) {
				found = true
				ready <- true
			}
		}
		if !found {
			ready <- false
		}
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("starter dev exited before its worker started:\n%s", stderr.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("starter dev did not start its worker within 2 minutes:\n%s", stderr.String())
	}
}

// StopAtCleanup stops cmd's process when the test ends, if it was started and has
// not been waited for: it sends sig (the graceful stop the command expects) and kills
// it if it has not exited 30 s later, so that a hung process fails no later test.
func StopAtCleanup(t testing.TB, cmd *exec.Cmd, sig os.Signal) {
	t.Cleanup(func() {
		if cmd.Process == nil || cmd.ProcessState != nil {
			return
		}
		_ = cmd.Process.Signal(sig)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
}
