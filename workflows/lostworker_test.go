package workflows_test

import (
	"context"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/internal/testenv"
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

// shutdownHistories are turns whose edit its worker's shutdown stopped: before the
// shutdown-result change (reported lost; recorded by the code of 607fce8) and with it.
const (
	shutdownHistoryBefore = "testdata/turn_history_shutdown_lost.json"
	shutdownHistory       = "testdata/turn_history_shutdown.json"
)

// An attempt that a worker reports as lost (its process found dead) or cut short by
// its shutdown counts as a lost worker, like a heartbeat timeout: the edit reports
// interrupted without a second run (that its worker shut down, when it did), the
// read is retried.
func TestWorkerLostOrShutdownFailureIsLostWorker(t *testing.T) {
	for typ, want := range map[string]string{workflows.ErrWorkerLost: workflows.LostWorkerMessage, workflows.ErrWorkerShutdown: workflows.ShutdownWorkerMessage} {
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
			run := h.start(workflows.TurnInput{Blocks: []tool.Block{editB("e1"), readB("r1")}, CloseIntake: true})
			res := h.result(run)
			if r := byID(res.Results, "e1"); !r.IsError || r.Content != want {
				t.Errorf("e1: %+v, want %q", r, want)
			}
			if typ == workflows.ErrWorkerShutdown && os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
				testenv.WriteHistory(t, shutdownHistory, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
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

// TestShutdownResultReplay replays a turn whose edit its worker's shutdown stopped,
// recorded before the shutdown-result change and with it: both replay.
func TestShutdownResultReplay(t *testing.T) {
	replayHistory(t, shutdownHistoryBefore, "")
	replayHistory(t, shutdownHistory, "")
}
