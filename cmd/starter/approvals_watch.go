package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/toolpipe/toolpipe/workflows"
)

// approvalPoll is how often `starter run` looks for calls waiting for approval.
const approvalPoll = time.Second

// watchApprovals tells the user on stderr, once per call, that a call waits for
// approval and how to answer it, until ctx ends or stop is called. The wait itself
// is in the workflow: this is only the prompt.
func watchApprovals(ctx context.Context, r stateReader, id string, stderr io.Writer) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		shown := map[string]bool{}
		t := time.NewTicker(approvalPoll)
		defer t.Stop()
		for {
			if st, err := queryState(ctx, r, id); err == nil {
				for _, p := range st.Pending {
					if !shown[p.ToolUseID] {
						shown[p.ToolUseID] = true
						printPending(stderr, id, p)
					}
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() { cancel(); <-done }
}

// stateReader is what reading a turn's state needs of a client: the Go API's
// TurnState (the State query while the turn runs, its history once it closed).
type stateReader interface {
	TurnState(ctx context.Context, id string) (workflows.TurnState, error)
}

// queryState reads a turn's state.
func queryState(ctx context.Context, r stateReader, id string) (workflows.TurnState, error) {
	st, err := r.TurnState(ctx, id)
	if err != nil {
		return st, fmt.Errorf("state of %s: %w", id, err)
	}
	return st, nil
}

// printPending shows one call waiting for approval and the commands that answer it.
func printPending(w io.Writer, turn string, p workflows.PendingApproval) {
	fmt.Fprintf(w, "  %s waiting for approval: %s\n    why: %s\n    until: %s (then denied)\n    answer: starter approve %s %s  |  starter deny %s %s --reason TEXT\n",
		p.ToolUseID, p.Description, p.Reason, p.Deadline.Local().Format(time.RFC3339), turn, p.ToolUseID, turn, p.ToolUseID)
}
