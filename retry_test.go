package toolpipe_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/internal/testenv"
)

// TestCustomToolRetries: a returned error is a failure of the call, retried when the
// call is safe (a flaky read succeeds on its second attempt) and not when it is not
// (a write runs once and the model reads the error).
func TestCustomToolRetries(t *testing.T) {
	var reads, writes atomic.Int32
	flaky := toolpipe.MustTool(toolpipe.ToolSpec{
		Name: "Flaky", Description: "Reads or writes, failing the first time.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"write":{"type":"boolean"}}}`),
		IsConcurrencySafe: func(in json.RawMessage) bool {
			var v struct{ Write bool }
			return json.Unmarshal(in, &v) == nil && !v.Write
		},
		Run: func(ctx context.Context, call toolpipe.Call) (toolpipe.Result, error) {
			var v struct{ Write bool }
			_ = json.Unmarshal(call.Input, &v)
			n := &reads
			if v.Write {
				n = &writes
			}
			if n.Add(1) == 1 {
				return toolpipe.Result{}, errors.New("backend unavailable")
			}
			return toolpipe.Result{Content: "fine"}, nil
		},
	})
	c, _ := ownWorker(t, toolpipe.Options{Tools: []*toolpipe.Tool{flaky}})
	ctx := testenv.Context(t)
	turn, err := c.StartTurn(ctx, []toolpipe.Block{
		{ID: "r", Name: "Flaky", Input: raw(`{}`)},
		{ID: "w", Name: "Flaky", Input: raw(`{"write":true}`)},
	}, toolpipe.TurnOptions{SessionID: "s3-" + t.Name(), Workdir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := turn.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Results[0]; r.Content != "fine" || r.IsError || reads.Load() != 2 {
		t.Errorf("safe call: %+v after %d attempts, want fine after 2", r, reads.Load())
	}
	if r := res.Results[1]; r.Content != "Error: backend unavailable" || !r.IsError || writes.Load() != 1 {
		t.Errorf("unsafe call: %+v after %d attempts, want the error after 1", r, writes.Load())
	}
}
