package toolpipe_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/scheduler"
)

// TestCustomToolInterrupt: an InterruptCancel tool's call stops on the client's
// Interrupt (its Run sees its context cancelled) and the model reads that it was
// interrupted.
func TestCustomToolInterrupt(t *testing.T) {
	started, stopped := make(chan struct{}), make(chan struct{})
	wait := toolpipe.MustTool(toolpipe.ToolSpec{
		Name: "Wait", Description: "Waits until it is stopped.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Interrupt: toolpipe.InterruptCancel,
		Run: func(ctx context.Context, call toolpipe.Call) (toolpipe.Result, error) {
			close(started)
			select {
			case <-ctx.Done():
				close(stopped)
				return toolpipe.Result{}, ctx.Err()
			case <-time.After(time.Minute):
				return toolpipe.Result{Content: "never stopped"}, nil
			}
		},
	})
	c, _ := ownWorker(t, toolpipe.Options{Tools: []*toolpipe.Tool{wait}})
	ctx := testenv.Context(t)
	turn, err := c.StartTurn(ctx, []toolpipe.Block{{ID: "w1-" + t.Name(), Name: "Wait", Input: raw(`{}`)}},
		toolpipe.TurnOptions{SessionID: "s7", Workdir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("the call never started")
	}
	st, err := turn.State(ctx)
	if err != nil || !st.Interruptible {
		t.Fatalf("state %+v, %v: a running cancel tool makes the turn interruptible", st, err)
	}
	if err := turn.Interrupt(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := turn.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopped:
	default:
		t.Error("Run's context was not cancelled")
	}
	if r := res.Results[0]; !r.IsError || r.Content != scheduler.InterruptedMessage {
		t.Fatalf("result %+v", r)
	}
}
