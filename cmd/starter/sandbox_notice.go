package main

import (
	"fmt"
	"io"
	"sync"

	"github.com/toolpipe/toolpipe/activities"
)

// sandboxNoticeOnce makes the in-process worker's word about its sandbox
// (activities.SandboxNotice: no bubblewrap, so read-only commands run under
// Landlock or unconfined) appear once per process, however many queues it serves.
var sandboxNoticeOnce sync.Once

// noteSandbox prints the notice, if any, on w the first time a worker of this
// process starts.
func noteSandbox(w io.Writer) {
	sandboxNoticeOnce.Do(func() {
		if n := activities.SandboxNotice(); n != "" {
			fmt.Fprintln(w, n)
		}
	})
}

// sandboxLine is `agent status`'s word on how read-only commands are confined.
// A cluster's workers run elsewhere: the line is about this machine.
func sandboxLine(e *env) string {
	if e.conn.Embedded {
		return activities.SandboxStatus()
	}
	return activities.SandboxStatus() + " (on this machine; the cluster's workers report theirs when they start)"
}
