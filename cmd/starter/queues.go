package main

import (
	"context"
	"fmt"
	"time"

	sdkworker "go.temporal.io/sdk/worker"

	tpworker "github.com/toolpipe/toolpipe/worker"
)

// Many starters share one state directory (the default one is shared by every
// run). Each process runs only the workflows it started, on a task queue of its
// own (worker.ProcessQueue), so no process picks up another invocation's tools, and
// none cancels them by exiting. A workflow whose process exited is paused: nothing
// polls its queue. Attaching to it (the same `run` again, `agent --session S`)
// adopts the queue: this process runs a worker on it and the workflow resumes. If
// the process that runs it is still alive, this one follows and takes over when
// that process exits. The server stays up while any client needs it (worker's
// server keeper).

// starterShutdownGrace is how long the tools of a run or agent process may go on
// once it exits (Ctrl-C, SIGTERM): then they are cancelled, their processes killed,
// and reported to their turns as stopped by the shutdown. The user asked the
// process to stop: a worker's 10 s grace would keep the tools running, silently.
const starterShutdownGrace = time.Second

// servedQueue is a worker this process runs and the queue lock it holds.
type servedQueue struct {
	worker sdkworker.Worker
	lock   *tpworker.QueueLock
}

// serveQueue starts a worker on queue; lock is its lock when already held.
func (e *env) serveQueue(queue string, lock *tpworker.QueueLock) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.served[queue]; ok || e.closing {
		lock.Release()
		return nil
	}
	if lock == nil && queue != e.base {
		var ok bool
		var err error
		if lock, ok, err = tpworker.TryLockQueue(e.cfg.StateDir, queue); err != nil {
			return err
		} else if !ok {
			return fmt.Errorf("task queue %s is served by another process", queue)
		}
	}
	var grace time.Duration // dev's worker on the shared queue: a worker's 10 s
	if queue != e.base {
		grace = starterShutdownGrace
	}
	w, err := e.startWorker(queue, tpworker.Config{WebFetchAllowPrivate: e.cfg.WebFetchAllowPrivate, WebFetchTimeout: e.cfg.WebFetchTimeout,
		Overrides: e.overrides, MCPEnvAllow: e.cfg.MCPEnvAllow, ShutdownGrace: grace})
	if err != nil {
		lock.Release()
		return fmt.Errorf("in-process worker: %w", err)
	}
	e.served[queue] = servedQueue{worker: w, lock: lock}
	noteSandbox(e.stderr) // sandbox_notice.go
	return nil
}

// adopt makes sure the workflow id runs: when it is on another process's queue
// (queue, as its start or description said; closed when it has finished) and
// that process has exited, this process serves the queue now (serving is true);
// while that process lives, this one takes over when it exits.
func (e *env) adopt(ctx context.Context, id, what, queue string, closed bool) (serving bool, err error) {
	if !e.conn.Embedded || closed {
		return false, nil // finished: its result is kept, nothing to run
	}
	e.mu.Lock()
	_, ours := e.served[queue]
	e.mu.Unlock()
	if ours || !tpworker.IsProcessQueue(queue, e.base) {
		return ours, nil
	}
	lock, ok, err := tpworker.TryLockQueue(e.cfg.StateDir, queue)
	if err != nil {
		return false, err
	}
	if ok {
		fmt.Fprintf(e.stderr, "%s %s was paused (the starter running it exited): resuming it in this process\n", what, id)
		return true, e.serveQueue(queue, lock)
	}
	fmt.Fprintf(e.stderr, "%s %s is running in another starter process: following it (this process takes over if that one exits)\n", what, id)
	e.following.Store(true)
	go func() {
		lock, err := tpworker.WaitLockQueue(e.cfg.StateDir, queue)
		if err != nil {
			return
		}
		if e.serveQueue(queue, lock) == nil && !e.isClosing() {
			e.following.Store(false)
			fmt.Fprintf(e.stderr, "the starter running %s %s exited: this process runs it now\n", what, id)
		}
	}()
	return false, nil
}

func (e *env) isClosing() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.closing
}

// stopWorkers stops every worker of this process; their queue locks go with them,
// so the workflows they ran read as paused.
func (e *env) stopWorkers() {
	e.mu.Lock()
	e.closing = true
	served := e.served
	e.served = map[string]servedQueue{}
	e.mu.Unlock()
	for _, s := range served {
		s.worker.Stop()
		s.lock.Release()
	}
}

// pausedNote says that the workflow id is paused, and how to resume it, when the
// process that ran it has exited; "" when it runs, finished or is not on a
// process's queue.
func (e *env) pausedNote(ctx context.Context, id string) string {
	if !e.conn.Embedded {
		return ""
	}
	d, err := e.conn.Client.DescribeWorkflowExecution(ctx, id, "")
	if err != nil || d.GetWorkflowExecutionInfo().GetCloseTime() != nil {
		return ""
	}
	queue := d.GetExecutionConfig().GetTaskQueue().GetName()
	if !tpworker.IsProcessQueue(queue, e.base) || tpworker.QueueServed(e.cfg.StateDir, queue) {
		return ""
	}
	return fmt.Sprintf("%s is paused: the starter that ran it has exited (%d tool calls were running or waiting for their result). "+
		"It resumes when a starter attaches to it: the same `starter run` (same --session, message and --state-dir), or `starter agent --session S` for a session.",
		id, len(d.GetPendingActivities()))
}

// answerQueries makes sure a query about the workflow id can be answered: when it
// runs on a process's queue that nothing polls (its starter exited),
// this process polls that queue for workflow tasks only, without taking its lock:
// queries replay the workflow, and no tool of it runs here.
func (e *env) answerQueries(ctx context.Context, id string) {
	if !e.conn.Embedded {
		return
	}
	d, err := e.conn.Client.DescribeWorkflowExecution(ctx, id, "")
	if err != nil || d.GetWorkflowExecutionInfo().GetCloseTime() != nil {
		return // a closed one answers from its history (closed.go)
	}
	queue := d.GetExecutionConfig().GetTaskQueue().GetName()
	if !tpworker.IsProcessQueue(queue, e.base) || tpworker.QueueServed(e.cfg.StateDir, queue) {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.served[queue]; ok || e.closing {
		return
	}
	w, err := e.startWorker(queue, tpworker.Config{WorkflowsOnly: true})
	if err == nil {
		e.served[queue] = servedQueue{worker: w}
	}
}

// startWorker starts a worker of queue with toolpipe's plugin (the Go API's one
// worker set-up), on this process's state directory and log.
func (e *env) startWorker(queue string, cfg tpworker.Config) (sdkworker.Worker, error) {
	cfg.Client, cfg.TaskQueue, cfg.StateDir, cfg.Logger, cfg.Blob = e.conn.Client, queue, e.cfg.StateDir, e.log, e.conn.Blob
	return tpworker.Start(cfg) // the plugin on a worker of its own
}

// answerable reports whether a query about the workflow id, closed or not, would be
// answered soon: a worker polls its task queue (this process's, another live
// starter's, or on a cluster one that polled lately). A query nobody answers waits
// for its timeout (10 s).
func (e *env) answerable(ctx context.Context, id string) bool {
	d, err := e.conn.Client.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return false
	}
	queue := d.GetExecutionConfig().GetTaskQueue().GetName()
	if !e.conn.Embedded {
		polled, ok := e.polled(ctx, queue) // pollers.go
		return polled || !ok
	}
	e.mu.Lock()
	_, ours := e.served[queue]
	e.mu.Unlock()
	return ours || !tpworker.IsProcessQueue(queue, e.base) || tpworker.QueueServed(e.cfg.StateDir, queue)
}
