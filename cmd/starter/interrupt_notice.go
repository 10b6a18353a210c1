package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"go.temporal.io/api/serviceerror"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// sayOnInterrupt prints, the moment Ctrl-C (or SIGTERM) ends ctx, what the process
// does now and how to resume: stopping this process's tools takes a few seconds, and
// a silent terminal in the meantime looks frozen. parent is the context before the
// signal was attached: its end is not an interrupt. The returned func stops the
// watch.
func sayOnInterrupt(ctx, parent context.Context, stderr io.Writer, what, resume string) (stop func()) {
	done := make(chan struct{})
	go func() {
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
			if parent.Err() == nil {
				fmt.Fprintf(stderr, "\nstarter: interrupted: stopping the tools this process runs (a few seconds); %s is paused, its state kept in the state directory. To resume, %s.\n", what, resume)
			}
		}
	}()
	return func() { close(done) }
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
