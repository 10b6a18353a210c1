package main

import (
	"context"
	"fmt"
	"io"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
)

// On a cluster this process runs no worker: a turn or session whose task queue no
// worker polls waits, silently, until one does. The queue's pollers are one
// DescribeTaskQueue away, so the commands say so instead.

// pollerRecent is how long after its last poll a worker counts as polling: a poll
// lasts up to a minute, and the server keeps pollers it has not heard of for a while.
const pollerRecent = 2 * time.Minute

// pollerCheck is how often a turn or session waiting for a worker looks again.
const pollerCheck = 5 * time.Second

// polled reports whether a worker polls the workflow task queue now (has asked for
// work within pollerRecent); ok is false when the server cannot tell.
func (e *env) polled(ctx context.Context, queue string) (polled, ok bool) {
	d, err := e.conn.Client.DescribeTaskQueue(ctx, queue, enumspb.TASK_QUEUE_TYPE_WORKFLOW)
	if err != nil {
		return false, false
	}
	for _, p := range d.GetPollers() {
		if t := p.GetLastAccessTime(); t != nil && time.Since(t.AsTime()) < pollerRecent {
			return true, true
		}
	}
	return false, true
}

// queueOf is the task queue workflow id runs on, or "" when it cannot be told.
func (e *env) queueOf(ctx context.Context, id string) string {
	d, err := e.conn.Client.DescribeWorkflowExecution(ctx, id, "")
	if err != nil || d.GetWorkflowExecutionInfo().GetCloseTime() != nil {
		return ""
	}
	return d.GetExecutionConfig().GetTaskQueue().GetName()
}

// watchPollers says on stderr, on a cluster, when nothing polls the task queue of
// a workflow (what: "turn", "session"), and then when a worker does, until stop.
func (e *env) watchPollers(ctx context.Context, queue, what string, stderr io.Writer) (stop func()) {
	if e.conn.Embedded || queue == "" {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		said := false
		for {
			polled, ok := e.polled(ctx, queue)
			switch {
			case ok && !polled && !said:
				fmt.Fprintf(stderr, "starter: no worker polls task queue %q on %s (none has asked for work in the last %s): the %s waits until one runs it (`worker --task-queue %s`, with the same TEMPORAL_ADDRESS and state directory)\n",
					queue, e.conn.Address, pollerRecent, what, queue)
				said = true
			case ok && polled && said:
				fmt.Fprintf(stderr, "starter: a worker now polls task queue %q: the %s goes on\n", queue, what)
				return
			case ok && polled:
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(pollerCheck):
			}
		}
	}()
	return func() { cancel(); <-done }
}

// unpolled is the error of a query that no worker would answer: on a cluster, the
// running workflow id's task queue has no poller, so the query would wait for its
// timeout. nil when a worker polls it, in embedded mode, or when it cannot be told.
func (e *env) unpolled(ctx context.Context, id, what string) error {
	if e.conn.Embedded {
		return nil
	}
	queue := e.queueOf(ctx, id)
	if queue == "" {
		return nil
	}
	if polled, ok := e.polled(ctx, queue); ok && !polled {
		return fmt.Errorf("%s %s runs on task queue %q, which no worker polls (none has asked for work in the last %s): its state is read by a worker; start one (`worker --task-queue %s`)",
			what, id, queue, pollerRecent, queue)
	}
	return nil
}
