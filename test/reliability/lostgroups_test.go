package reliability

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// A SIGKILLed worker's Bash shell dies with it (Pdeathsig), but what the shell
// started lives on in its process group; the next worker's sweep kills it before it
// reports the call lost, so the model running the call again does not run it twice.
func TestDeadWorkersChildrenKilledBySweep(t *testing.T) {
	e := newEnv(t)
	first := e.startWorkerProcess()
	work := t.TempDir()
	pidFile := filepath.Join(work, "child.pid")
	run := e.start("orphan", workflows.TurnInput{Workdir: work, CloseIntake: true,
		Options: workflows.TurnOptions{HeartbeatTimeout: longHeartbeat},
		Blocks:  []tool.Block{bash("b", "sleep 300 & echo $! > child.tmp && mv child.tmp child.pid; wait")}})
	var child int
	poll(t, "the Bash's child to start", longHeartbeat/2, func() bool {
		b, err := os.ReadFile(pidFile)
		if err != nil {
			return false
		}
		child, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil
	})
	t.Cleanup(func() { _ = syscall.Kill(child, syscall.SIGKILL) })
	first.kill()
	if !running(child) {
		t.Fatalf("the Bash's child %d died with its worker: this test needs it to outlive the worker's SIGKILL", child)
	}
	second := e.startWorkerProcess()
	if got := second.next(t); got != "swept 1" {
		t.Fatalf("the new worker's sweep: %q, want %q", got, "swept 1")
	}
	// The sweep has sent SIGKILL by the time it reports; its delivery is the kernel's.
	poll(t, fmt.Sprintf("the dead worker's grandchild %d to be killed by the sweep", child), longHeartbeat/4, func() bool { return !running(child) })
	ctx, cancel := context.WithTimeout(testenv.Context(t), longHeartbeat/2)
	defer cancel()
	var res workflows.TurnResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	wantInterrupted(t, res)
	e.healthy()
}

// running reports whether pid is a live process: a zombie waiting for a reaper
// that this test does not control (pid 1 of a container may never reap) is dead.
func running(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}
