package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"go.temporal.io/api/serviceerror"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// interruptedError is a command ended by SIGINT (Ctrl-C) or SIGTERM: it exits
// 128+signal as shells do (130, 143), not 1, since nothing failed (DESIGN §7); what
// happens to the work was said when the signal came (sayOnInterrupt).
type interruptedError struct{ sig syscall.Signal }

func (e interruptedError) Error() string { return "interrupted by " + e.name() }

// name is how the user knows the signal.
func (e interruptedError) name() string {
	if e.sig == syscall.SIGINT {
		return "Ctrl-C (SIGINT)"
	}
	return "SIGTERM" // the only other one withSignals catches
}

// exitCode is the status of a command the signal ended.
func (e interruptedError) exitCode() int { return 128 + int(e.sig) }

// withSignals is signal.NotifyContext for SIGINT and SIGTERM whose cause, once a
// signal came, is an interruptedError naming it.
func withSignals(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		select {
		case s := <-ch:
			cancel(interruptedError{s.(syscall.Signal)})
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(ch); cancel(nil) }
}

// interrupted returns the interruptedError when a signal ended ctx, else err: a
// command that a signal stopped exits as interrupted, whatever error its work
// returned on the way out (a cancelled update, a cancelled wait).
func interrupted(ctx context.Context, err error) error {
	var ie interruptedError
	if err != nil && errors.As(context.Cause(ctx), &ie) {
		return ie
	}
	return err
}

// sayOnInterrupt prints, the moment Ctrl-C (or SIGTERM) ends ctx, what happens to
// the work and how to resume it: at once, since stopping this process's tools takes
// a moment, and a silent terminal in the meantime looks frozen. what names the work
// ("the turn", "session S"), resume the command that resumes or follows it again.
// running is set once the command has connected: on a cluster this process runs no
// tool and the work stays open on the server; when it only follows work another
// starter process runs, that work goes on there; otherwise it is paused. The
// returned func stops the watch.
func sayOnInterrupt(ctx context.Context, stderr io.Writer, what, resume string, running *atomic.Pointer[env]) (stop func()) {
	done, said := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(said)
		select {
		case <-done:
		case <-ctx.Done():
			// stop closes done before the command's own cancel: a command that
			// ended by itself is not interrupted.
			select {
			case <-done:
				return
			default:
			}
			var ie interruptedError
			if !errors.As(context.Cause(ctx), &ie) {
				return
			}
			switch e := running.Load(); {
			case e != nil && !e.conn.Embedded:
				fmt.Fprintf(stderr, "\nstarter: %s: this process ran no tool (the cluster's workers run them): %s stays open on the server and goes on as they run it. To follow it again, %s.\n",
					ie.name(), what, resume)
			case e != nil && e.following.Load():
				fmt.Fprintf(stderr, "\nstarter: %s: this process only followed %s, which another starter process runs: it goes on there. To follow it again, %s.\n",
					ie.name(), what, resume)
			default:
				fmt.Fprintf(stderr, "\nstarter: %s: %s is paused, its state kept in the state directory; the tools this process was running are stopped (within %s) and reported interrupted. To resume, %s.\n",
					ie.name(), what, starterShutdownGrace, resume)
			}
		}
	}()
	return func() {
		// A signal ended the command: the notice is printed before the process
		// exits (the command returning at once must not race it away).
		var ie interruptedError
		if ctx.Err() != nil && errors.As(context.Cause(ctx), &ie) {
			<-said
			return
		}
		close(done)
	}
}

// transient reports whether err is the server being briefly away (restarting, or
// taken over by another client of the state directory): worth trying again.
func transient(err error) bool {
	var unavailable *serviceerror.Unavailable
	if errors.As(err, &unavailable) {
		return true
	}
	if s, ok := status.FromError(err); ok {
		switch s.Code() {
		case codes.Unavailable, codes.DeadlineExceeded:
			return true
		}
	}
	return false
}
