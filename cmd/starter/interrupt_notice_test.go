package main

import (
	"context"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// The notice of a signal is printed before the command's deferred stop returns:
// a command that returns the moment its context ends (a turn on a cluster, with
// nothing to wait for) must not exit before it says what happens to the work.
func TestInterruptNoticeIsPrintedBeforeStopReturns(t *testing.T) {
	for i := 0; i < 50; i++ { // the race it closes lost the notice in most runs
		ctx, cancel := context.WithCancelCause(context.Background())
		var out strings.Builder
		var running atomic.Pointer[env]
		stop := sayOnInterrupt(ctx, &out, "the turn", "run the same command again", &running)
		cancel(interruptedError{syscall.SIGTERM})
		stop()
		if !strings.Contains(out.String(), "starter: SIGTERM: the turn is paused") {
			t.Fatalf("run %d: after stop the output is %q, want the SIGTERM notice", i, out.String())
		}
	}
}

// A command that ended by itself says nothing, even when its context is
// cancelled right after.
func TestNoInterruptNoticeWhenTheCommandEndedByItself(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	var out strings.Builder
	var running atomic.Pointer[env]
	stop := sayOnInterrupt(ctx, &out, "the turn", "run it again", &running)
	stop()
	cancel(nil)
	if out.String() != "" {
		t.Errorf("output %q, want none", out.String())
	}
}
