package workflows_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// A tool whose worker goes silent (it stops heartbeating, as a dead worker does):
// a tool that may have side effects is not run again and reports interrupted; a
// read-only tool is retried and succeeds.
func TestLostWorkerRetriesOnlyReadOnly(t *testing.T) {
	h := newHarness(t)
	hung := make(chan struct{})
	t.Cleanup(func() { close(hung) })
	var editAttempts, readAttempts atomic.Int32
	silent := func(ctx context.Context) {
		select {
		case <-hung:
		case <-ctx.Done():
		}
	}
	h.probe.on("e1", func(ctx context.Context, p *probe) (tool.Output, error) {
		editAttempts.Add(1)
		silent(ctx)
		return tool.Output{Content: "too late"}, nil
	})
	h.probe.on("r1", func(ctx context.Context, p *probe) (tool.Output, error) {
		if readAttempts.Add(1) == 1 && activity.GetInfo(ctx).Attempt == 1 {
			silent(ctx)
			return tool.Output{Content: "too late"}, nil
		}
		return tool.Output{Content: "read on retry"}, nil
	})
	res := h.result(h.start(workflows.TurnInput{
		Blocks: []tool.Block{editB("e1"), readB("r1")}, CloseIntake: true,
		Options: workflows.TurnOptions{HeartbeatTimeout: time.Second},
	}))
	if r := byID(res.Results, "e1"); !r.IsError || r.Content != workflows.LostWorkerMessage {
		t.Errorf("e1: %+v, want %q", r, workflows.LostWorkerMessage)
	}
	if n := editAttempts.Load(); n != 1 {
		t.Errorf("the edit ran %d times; a tool with side effects must run at most once", n)
	}
	if r := byID(res.Results, "r1"); r.IsError || r.Content != "read on retry" {
		t.Errorf("r1: %+v, want a successful retry", r)
	}
	if n := readAttempts.Load(); n != 2 {
		t.Errorf("the read ran %d times, want 2", n)
	}
}

// An attempt that a worker reports as lost (its process found dead) or cut short by
// its shutdown counts as a lost worker, like a heartbeat timeout: the edit reports
// interrupted without a second run, the read is retried.
func TestWorkerLostOrShutdownFailureIsLostWorker(t *testing.T) {
	for _, typ := range []string{workflows.ErrWorkerLost, workflows.ErrWorkerShutdown} {
		t.Run(typ, func(t *testing.T) {
			h := newHarness(t)
			var editAttempts, readAttempts atomic.Int32
			h.probe.on("e1", func(ctx context.Context, p *probe) (tool.Output, error) {
				editAttempts.Add(1)
				return tool.Output{}, temporal.NewApplicationErrorWithOptions("the worker died", typ, temporal.ApplicationErrorOptions{})
			})
			h.probe.on("r1", func(ctx context.Context, p *probe) (tool.Output, error) {
				if readAttempts.Add(1) == 1 {
					return tool.Output{}, temporal.NewApplicationErrorWithOptions("the worker died", typ, temporal.ApplicationErrorOptions{})
				}
				return tool.Output{Content: "read on retry"}, nil
			})
			res := h.result(h.start(workflows.TurnInput{Blocks: []tool.Block{editB("e1"), readB("r1")}, CloseIntake: true}))
			if r := byID(res.Results, "e1"); !r.IsError || r.Content != workflows.LostWorkerMessage {
				t.Errorf("e1: %+v, want %q", r, workflows.LostWorkerMessage)
			}
			if n := editAttempts.Load(); n != 1 {
				t.Errorf("the edit ran %d times, want once", n)
			}
			if r := byID(res.Results, "r1"); r.IsError || r.Content != "read on retry" {
				t.Errorf("r1: %+v, want a successful retry", r)
			}
		})
	}
}
