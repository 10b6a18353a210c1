// Package executor runs a turn's tool calls in-process, without Temporal, with the
// same scheduling code (package scheduler) and the same tool functions as the
// durable Turn workflow. It is the baseline the benchmarks measure durability
// against, and a reference for what the workflow does.
package executor

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/tool"
)

// ToolFunc runs one tool call.
type ToolFunc = func(context.Context, tool.Call) (tool.Output, error)

// Config holds what the executor runs tools with.
type Config struct {
	Tools     map[string]ToolFunc
	SessionID string
	Workdir   string
}

// Executor runs turns in-process.
type Executor struct{ cfg Config }

// New validates cfg.
func New(cfg Config) (*Executor, error) {
	if len(cfg.Tools) == 0 {
		return nil, errors.New("executor: Config.Tools is empty")
	}
	return &Executor{cfg: cfg}, nil
}

// Run executes blocks as one turn and returns the results in arrival order.
func (e *Executor) Run(ctx context.Context, blocks []tool.Block) ([]tool.Result, error) {
	t := &run{e: e, tracker: scheduler.New(), done: make(chan struct{}), cancels: map[string]context.CancelFunc{}}
	t.siblingCtx, t.cancelSiblings = context.WithCancel(ctx)
	defer t.cancelSiblings()
	t.mu.Lock()
	for _, b := range blocks {
		if err := tool.CheckBlock(b); err != nil {
			t.mu.Unlock()
			return nil, fmt.Errorf("executor: %w", err)
		}
		if _, err := t.tracker.Add(b); err != nil {
			t.mu.Unlock()
			return nil, fmt.Errorf("executor: %w", err)
		}
	}
	t.pump()
	t.mu.Unlock()
	select {
	case <-t.done:
		return t.results, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// run is one turn; mu guards everything, as the workflow's single thread does.
type run struct {
	e              *Executor
	mu             sync.Mutex
	tracker        *scheduler.Tracker
	context        tool.Context
	results        []tool.Result
	siblingCtx     context.Context
	cancelSiblings context.CancelFunc
	cancels        map[string]context.CancelFunc
	done           chan struct{}
	closed         bool
}

// pump mirrors the workflow's: yield, scan, start, until nothing changes.
func (t *run) pump() {
	for {
		t.yield()
		started := t.tracker.Scan()
		if len(started) == 0 {
			break
		}
		immediate := false
		for _, x := range started {
			immediate = t.start(x) || immediate
		}
		if !immediate {
			break
		}
	}
	t.yield()
	if t.tracker.Done() && !t.closed {
		t.closed = true
		close(t.done)
	}
}

func (t *run) yield() {
	for _, x := range t.tracker.Yield() {
		t.context = t.context.Apply(x.Modifier)
		t.results = append(t.results, *x.Result)
	}
}

func (t *run) start(x *scheduler.Tracked) bool {
	def, _ := tool.Lookup(x.Block.Name)
	id := x.Block.ID
	if err := def.ValidateInput(x.Block.Input); err != nil {
		t.tracker.Reject(id, tool.ErrorResult(id, tool.UseError(err.Error()))) // as the Turn workflow
		return true
	}
	fn := t.e.cfg.Tools[x.Block.Name]
	if fn == nil {
		t.tracker.Complete(id, tool.ErrorResult(id, "Error: tool not available in-process: "+x.Block.Name), nil)
		return true
	}
	ctx, cancel := context.WithCancel(t.siblingCtx)
	t.cancels[id] = cancel
	call := tool.Call{SessionID: t.e.cfg.SessionID, ToolUseID: id, Name: x.Block.Name, Input: x.Block.Input,
		Workdir: t.e.cfg.Workdir, ReadFiles: t.context.ReadFiles}
	go func() {
		out, err := fn(ctx, call)
		t.mu.Lock()
		defer t.mu.Unlock()
		delete(t.cancels, id)
		cancel()
		switch {
		case err == nil:
			if cascade, _ := t.tracker.Complete(id, tool.Result{ToolUseID: id, Content: out.Content, IsError: out.IsError}, out.Modifier); cascade {
				t.cancelSiblings()
			}
		case errors.Is(err, context.Canceled):
			t.tracker.Cancelled(id)
		default:
			t.tracker.Complete(id, tool.ErrorResult(id, "Error: "+err.Error()), nil)
		}
		t.pump()
	}()
	return false
}
