package main

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/tool"
)

// fixedTurn answers TurnState with a fixed state and counts the reads.
type fixedTurn struct {
	st    toolpipe.TurnState
	reads atomic.Int32
}

func (r *fixedTurn) TurnState(context.Context, string) (toolpipe.TurnState, error) {
	r.reads.Add(1)
	return r.st, nil
}

func (r *fixedTurn) DescribeWorkflowExecution(context.Context, string, string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	return &workflowservice.DescribeWorkflowExecutionResponse{}, nil
}

// A call added to the turn after the watcher's last read (a streamed second block)
// yields its result through the session's events: stop must read the turn again
// rather than draw the old state, which would leave the call out of the display.
func TestWatcherStopReadsAgainForACallItHasNotSeen(t *testing.T) {
	one := toolpipe.ToolState{ID: "a1", Name: "Glob", Description: "Glob(*.go)", Status: toolpipe.StatusYielded}
	two := toolpipe.ToolState{ID: "a2", Name: "Grep", Description: "Grep(TODO)", Status: toolpipe.StatusYielded}
	for _, c := range []struct {
		name      string
		results   []string
		wantReads int32
		wantGrep  bool
	}{
		{"a result of a call not in the last state", []string{"a1", "a2"}, 1, true},
		{"every call of the last state has its result", []string{"a1"}, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &fixedTurn{st: toolpipe.TurnState{Tools: []toolpipe.ToolState{one, two}}}
			var buf bytes.Buffer
			w := &watcher{
				r: r, id: "turn-x", p: newProgress(&buf, false, 0), interval: time.Hour, now: time.Now,
				started: map[string]time.Time{}, ended: map[string]time.Time{}, errors: map[string]string{}, results: map[string]bool{},
				quit: make(chan struct{}), done: make(chan struct{}),
			}
			close(w.done) // no polling loop: the last state is the one set here
			w.last = toolpipe.TurnState{Tools: []toolpipe.ToolState{one}}
			for _, id := range c.results {
				w.result(tool.Result{ToolUseID: id, Content: "x"})
			}
			w.stop(context.Background())
			if got := r.reads.Load(); got != c.wantReads {
				t.Errorf("stop read the turn %d times, want %d", got, c.wantReads)
			}
			if got := strings.Contains(buf.String(), "a2 Grep(TODO): done"); got != c.wantGrep {
				t.Errorf("display shows a2 done: %v, want %v:\n%s", got, c.wantGrep, buf.String())
			}
		})
	}
}
