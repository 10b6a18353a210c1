package reliability

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// How fast a worker's death or shutdown reaches the turn (worker/lost.go), with a
// heartbeat timeout far longer than the tests may take: a result before it can only
// come from the lock or the shutdown report, never from the timeout.
const longHeartbeat = 2 * time.Minute

// lingering starts a turn whose side-effecting Bash writes a marker, then sleeps,
// and waits until the marker is written: the tool is running on some worker.
func (e *env) lingering(id string, heartbeat time.Duration) (wait func(ctx context.Context) workflows.TurnResult) {
	e.t.Helper()
	work := e.t.TempDir()
	marker := filepath.Join(work, "started")
	run := e.start(id, workflows.TurnInput{Workdir: work, CloseIntake: true, Options: workflows.TurnOptions{HeartbeatTimeout: heartbeat},
		Blocks: []tool.Block{bash("b", "echo started > started; sleep 120")}})
	poll(e.t, "the Bash to start", time.Minute, func() bool {
		b, err := os.ReadFile(marker)
		return err == nil && len(b) > 0
	})
	return func(ctx context.Context) workflows.TurnResult {
		e.t.Helper()
		var res workflows.TurnResult
		if err := run.Get(ctx, &res); err != nil {
			e.t.Fatalf("turn %s: %v", id, err)
		}
		return res
	}
}

func wantInterrupted(t *testing.T, res workflows.TurnResult) {
	t.Helper()
	wantResult(t, res, workflows.LostWorkerMessage)
}

// wantResult checks that call b's result is the error text want.
func wantResult(t *testing.T, res workflows.TurnResult, want string) {
	t.Helper()
	if r, ok := byID(res.Results, "b"); !ok || !r.IsError || r.Content != want {
		t.Fatalf("result %+v, want the error %q", res.Results, want)
	}
}

// A SIGKILLed worker's running tool is declared lost as soon as a new worker starts
// on the same state directory: its lock there proves the process dead. The turn
// completes long before the heartbeat timeout, with the lost-worker result.
func TestDeadWorkerDeclaredLostByNextWorker(t *testing.T) {
	e := newEnv(t)
	first := e.startWorkerProcess()
	wait := e.lingering("dead", longHeartbeat)
	first.kill()
	start := time.Now()
	second := e.startWorkerProcess()
	if got := second.next(t); got != "swept 1" {
		t.Fatalf("the new worker's sweep: %q, want %q", got, "swept 1")
	}
	ctx, cancel := context.WithTimeout(testenv.Context(t), longHeartbeat/2)
	defer cancel()
	wantInterrupted(t, wait(ctx))
	t.Logf("new worker start → turn complete: %v", time.Since(start).Round(time.Millisecond))
	e.healthy()
}

// A stalled worker (SIGSTOP) still holds its lock: a new worker does not declare
// its tool lost, and only the heartbeat timeout does, as before.
func TestStalledWorkerNotDeclaredLost(t *testing.T) {
	const heartbeat = 4 * time.Second
	e := newEnv(t)
	first := e.startWorkerProcess()
	e.lingering("stalled", heartbeat)
	if err := first.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	t.Cleanup(func() { _ = first.cmd.Process.Signal(syscall.SIGCONT) })
	second := e.startWorkerProcess()
	if got := second.next(t); got != "swept 0" {
		t.Fatalf("the new worker's sweep: %q, want %q (the stalled worker is alive)", got, "swept 0")
	}
	d, err := e.c.DescribeWorkflowExecution(testenv.Context(t), e.queue+"-stalled", "")
	if err != nil {
		t.Fatal(err)
	}
	if pa := d.GetPendingActivities(); len(pa) != 1 || pa[0].GetState() != enumspb.PENDING_ACTIVITY_STATE_STARTED || pa[0].GetAttempt() != 1 {
		t.Fatalf("after the sweep, pending activities %v: want the stalled worker's attempt still running", pa)
	}
	// The attempt's end, from the history as it grows (the turn's result would wait
	// out the workflow task the frozen worker holds as well).
	iter := e.c.GetWorkflowHistory(testenv.Context(t), e.queue+"-stalled", "", true, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED:
			t.Fatalf("the stalled worker's tool was failed (%v) %v after SIGSTOP: only its heartbeat timeout may end it",
				ev.GetActivityTaskFailedEventAttributes().GetFailure().GetMessage(), time.Since(stopped))
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
			// The server counts the timeout from the last heartbeat, at most one
			// throttle interval (500 ms) before the stop.
			if at := ev.GetEventTime().AsTime().Sub(stopped); at < heartbeat-time.Second {
				t.Fatalf("the stalled worker's tool timed out %v after SIGSTOP, before its heartbeat timeout (%v)", at, heartbeat)
			}
			return
		}
	}
	t.Fatal("the turn ended without its tool's end in the history")
}

// A worker stopped with SIGTERM reports the tools its shutdown grace cut short: the
// turn gets the shut-down result at once (not the lost-worker one: the worker was
// not lost, and said why it stopped the tool), not after the heartbeat timeout, and
// no sweep is needed for it.
func TestShutdownWorkerReportsItsTools(t *testing.T) {
	t.Setenv(graceEnv, "1s")
	e := newEnv(t)
	first := e.startWorkerProcess()
	wait := e.lingering("shutdown", longHeartbeat)
	if err := first.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := first.cmd.Wait(); err != nil {
		t.Fatalf("the stopped worker exited with %v", err)
	}
	// Its directory went with its clean exit: nothing is left for a sweep.
	if entries, _ := os.ReadDir(filepath.Join(e.state, "workers")); len(entries) != 0 {
		t.Errorf("workers/ holds %d entries after a clean exit, want none", len(entries))
	}
	second := e.startWorkerProcess() // runs the turn's next workflow task
	if got := second.next(t); got != "swept 0" {
		t.Fatalf("the new worker's sweep: %q, want %q (the shutdown reported its tool)", got, "swept 0")
	}
	ctx, cancel := context.WithTimeout(testenv.Context(t), longHeartbeat/2)
	defer cancel()
	wantResult(t, wait(ctx), workflows.ShutdownWorkerMessage)
}
