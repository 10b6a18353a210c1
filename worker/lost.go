package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/temporal"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/contract"
)

// Without help, the server learns that a worker died only when its tools' heartbeat
// timeout passes (20 s by default), and a shorter timeout would also declare a
// merely stalled worker (a long GC pause, a SIGSTOP, an overloaded machine) lost.
// But on one machine a dead process can be known for sure: the kernel drops a
// process's flock when it dies, however it dies. So every worker keeps a directory
// <state>/workers/<id>/ whose lock it holds for its whole life, with one record per
// running tool attempt (its task token) and one per process group its tools run
// (lost_groups.go). A worker that starts on the same state
// directory and kernel sweeps (lost_sweep.go): a directory whose lock is free
// belongs to a dead worker, whose recorded process groups are killed and whose
// recorded attempts are failed at once with the
// typed contract.ErrWorkerLost, and the turn's lost-worker rule applies (read-only
// tools retried, the others reported interrupted). A stalled worker still holds
// its lock, so it is never swept: only its heartbeat timeout can declare it lost,
// as before. A worker that shuts down gracefully says so itself: the tools still
// running when its grace ends report contract.ErrWorkerShutdown before it exits.

// workersDir holds the live workers' directories, under the state directory.
const workersDir = "workers"

// liveness is one worker's directory, its held lock and its running records.
type liveness struct {
	dir   string
	lock  *os.File
	seq   atomic.Uint64
	c     client.Client
	log   *slog.Logger
	count sync.WaitGroup
}

// owner is <dir>/owner.json: who holds the lock, for the sweep and for people.
type owner struct {
	PID       int       `json:"pid"`
	Host      string    `json:"host"`
	BootID    string    `json:"boot_id"`
	TaskQueue string    `json:"task_queue"`
	StartedAt time.Time `json:"started_at"`
}

// record is one running tool attempt: enough to fail exactly that attempt (the
// task token names it, attempt included) and to send its workflow's next task to
// the normal queue.
type record struct {
	Namespace    string `json:"namespace"`
	WorkflowID   string `json:"workflow_id"`
	RunID        string `json:"run_id"`
	ActivityID   string `json:"activity_id"`
	ActivityType string `json:"activity_type"`
	Attempt      int32  `json:"attempt"`
	TaskToken    []byte `json:"task_token"`
}

// errNoLocks is a state directory on a file system without flock (NFSv3 without
// a lock manager, some FUSE ones): a worker runs there without liveness records.
var errNoLocks = errors.New("the state directory's file system does not support file locks")

// flock is syscall.Flock; tests replace it to play a file system without locks.
var flock = syscall.Flock

// openLiveness is newLiveness, or nil with a warning where the file system has no
// locks: the worker runs, and a dead worker's tools are known lost only by their
// heartbeat timeout, as before there were liveness records.
func openLiveness(stateDir, queue string, c client.Client, log *slog.Logger) (*liveness, error) {
	live, err := newLiveness(stateDir, queue, c, log)
	if errors.Is(err, errNoLocks) {
		if log == nil {
			log = slog.Default()
		}
		log.Warn("worker: running without liveness records; a dead worker's tools will be declared lost only when their heartbeat times out, and their child processes are not killed",
			"state_dir", stateDir, "error", err)
		return nil, nil
	}
	return live, err
}

// newLiveness creates and locks this worker's directory. It is created under a
// dot name and renamed once locked, so a sweep never sees it unlocked.
func newLiveness(stateDir, queue string, c client.Client, log *slog.Logger) (*liveness, error) {
	root := filepath.Join(stateDir, workersDir)
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	host, _ := os.Hostname()
	tmp, err := os.MkdirTemp(root, ".new-")
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	fail := func(err error) (*liveness, error) {
		_ = os.RemoveAll(tmp)
		return nil, fmt.Errorf("worker: liveness directory: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(tmp, "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fail(err)
	}
	if err := flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		if errors.Is(err, syscall.ENOLCK) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EOPNOTSUPP) {
			err = fmt.Errorf("%w (%w)", errNoLocks, err)
		}
		return fail(err)
	}
	b, _ := json.Marshal(owner{PID: os.Getpid(), Host: host, BootID: bootID(), TaskQueue: queue, StartedAt: time.Now().UTC()})
	if err := os.WriteFile(filepath.Join(tmp, "owner.json"), b, 0o600); err != nil {
		lock.Close()
		return fail(err)
	}
	for _, sub := range []string{"running", groupsDir} {
		if err := os.Mkdir(filepath.Join(tmp, sub), 0o700); err != nil {
			lock.Close()
			return fail(err)
		}
	}
	dir := filepath.Join(root, fmt.Sprintf("%d-%s", os.Getpid(), strings.TrimPrefix(filepath.Base(tmp), ".new-")))
	if err := os.Rename(tmp, dir); err != nil {
		lock.Close()
		return fail(err)
	}
	if log == nil {
		log = slog.Default()
	}
	return &liveness{dir: dir, lock: lock, c: c, log: log}, nil
}

// bootID names the running kernel: flocks are authoritative only between processes
// of one kernel (containers on one host included), never across machines sharing
// the directory over a network file system.
func bootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		host, _ := os.Hostname()
		return "host:" + host
	}
	return strings.TrimSpace(string(b))
}

// add records a running attempt; the returned func removes the record.
func (l *liveness) add(info activity.Info) (remove func()) {
	r := record{Namespace: info.WorkflowNamespace, WorkflowID: info.WorkflowExecution.ID, RunID: info.WorkflowExecution.RunID,
		ActivityID: info.ActivityID, ActivityType: info.ActivityType.Name, Attempt: info.Attempt, TaskToken: info.TaskToken}
	b, _ := json.Marshal(r)
	path := filepath.Join(l.dir, "running", strconv.FormatUint(l.seq.Add(1), 10)+".json")
	// No fsync: the record matters only while this kernel runs (a reboot ends every
	// process, and their attempts time out as before).
	if err := os.WriteFile(path, b, 0o600); err != nil {
		l.log.Warn("worker: cannot record a running tool; if this worker dies, only its heartbeat timeout will tell", "error", err)
		return func() {}
	}
	return func() { _ = os.Remove(path) }
}

// close removes the directory when nothing is left running in it (a clean stop),
// and drops the lock; a record left behind is for a sweep to declare lost.
func (l *liveness) close() {
	entries, err := os.ReadDir(filepath.Join(l.dir, "running"))
	if err == nil && len(entries) == 0 {
		_ = os.RemoveAll(l.dir)
	}
	_ = l.lock.Close()
}

// livenessInbound records each running tool attempt and, when the worker shuts
// down under it, reports the attempt as ended by the shutdown before the process
// exits. The plugin puts it outermost on every activity (plugin.go).
type livenessInbound struct {
	interceptor.ActivityInboundInterceptorBase
	l *liveness
}

// shutdownReportTimeout bounds the RPC that reports a tool ended by the shutdown.
const shutdownReportTimeout = 5 * time.Second

func (b *livenessInbound) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	// The tool's process groups are recorded too, for a sweep to kill (lost_groups.go).
	ctx = activities.WithGroupRecorder(ctx, b.l)
	info := activity.GetInfo(ctx)
	if info.IsLocalActivity || len(info.TaskToken) == 0 {
		return b.Next.ExecuteActivity(ctx, in)
	}
	b.l.count.Add(1)
	defer b.l.count.Done()
	remove := b.l.add(info)
	out, err := b.Next.ExecuteActivity(ctx, in)
	if err == nil || !errors.Is(context.Cause(ctx), sdkworker.ErrWorkerShutdown) {
		remove()
		return out, err
	}
	// The SDK cancelled the tool because its grace after Stop ran out, and it would
	// report a plain "context canceled" only if the process outlived Stop. Report
	// the typed failure here, synchronously, and tell the SDK the result is pending
	// so that it sends nothing more.
	shutdown := temporal.NewApplicationErrorWithOptions(
		"the worker running this tool shut down before the tool finished; it may have partially run",
		contract.ErrWorkerShutdown, temporal.ApplicationErrorOptions{Cause: err})
	rctx, cancel := context.WithTimeout(context.Background(), shutdownReportTimeout)
	defer cancel()
	if rerr := failAttempt(rctx, b.l.c, info.WorkflowNamespace, info.TaskToken, shutdown); rerr != nil {
		// The record stays: once this process is gone, a sweep declares it lost.
		b.l.log.Warn("worker: cannot report a tool ended by the shutdown", "activity_id", info.ActivityID, "error", rerr)
		return nil, shutdown
	}
	remove()
	return nil, activity.ErrResultPending
}

// failAttempt fails the attempt the task token names, with err as its failure.
func failAttempt(ctx context.Context, c client.Client, namespace string, token []byte, err error) error {
	_, rerr := c.WorkflowService().RespondActivityTaskFailed(ctx, &workflowservice.RespondActivityTaskFailedRequest{
		Namespace: namespace, TaskToken: token, Failure: temporal.GetDefaultFailureConverter().ErrorToFailure(err),
		Identity: identity(),
	})
	return rerr
}

// identity names this process in what it reports for others.
func identity() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%d@%s@toolpipe", os.Getpid(), host)
}
