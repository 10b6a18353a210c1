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

// Config holds what the executor runs tools with.
type Config struct {
	// Tools are the tools it runs, as a worker's (activities.Activities.Registry):
	// each call runs its tool's Run in-process.
	Tools     *tool.Registry
	SessionID string
	Workdir   string
}

// Executor runs turns in-process.
type Executor struct{ cfg Config }

// New validates cfg.
func New(cfg Config) (*Executor, error) {
	if len(cfg.Tools.Names()) == 0 {
		return nil, errors.New("executor: Config.Tools is empty")
	}
	return &Executor{cfg: cfg}, nil
}

// Run executes blocks as one turn and returns the results in arrival order.
func (e *Executor) Run(ctx context.Context, blocks []tool.Block) ([]tool.Result, error) {
	t, err := e.start(ctx, blocks)
	if err != nil {
		return nil, err
	}
	defer t.cancelSiblings()
	return t.wait(ctx)
}

// start tracks blocks and starts what the scheduling rule allows.
func (e *Executor) start(ctx context.Context, blocks []tool.Block) (*run, error) {
	t := &run{e: e, tracker: scheduler.New(e.cfg.Tools), done: make(chan struct{}), cancels: map[string]context.CancelFunc{},
		notes: map[string]string{}}
	t.siblingCtx, t.cancelSiblings = context.WithCancel(ctx)
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, b := range blocks {
		if err := tool.CheckBlock(b); err != nil {
			t.cancelSiblings()
			return nil, fmt.Errorf("executor: %w", err)
		}
		b.Name = tool.Canonical(b.Name)
		if def, ok := e.cfg.Tools.Lookup(b.Name); ok {
			// Inputs are read as the Turn workflow reads them (tool.Definition.Repair).
			var note string
			b.Input, note = def.Repair(b.Input)
			if note != "" {
				t.notes[b.ID] = note
			}
		}
		if _, err := t.tracker.Add(b); err != nil {
			t.cancelSiblings()
			return nil, fmt.Errorf("executor: %w", err)
		}
	}
	t.pump()
	return t, nil
}

// wait returns the results once every tool is done, or the error that ended the run.
func (t *run) wait(ctx context.Context) ([]tool.Result, error) {
	select {
	case <-t.done:
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.err != nil {
			return nil, t.err
		}
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
	notes          map[string]string // what repaired inputs' results end with
	done           chan struct{}
	closed         bool
	// err is the first outcome the tracker refused (a bug, where the workflow
	// panics): the run ends with it instead of hanging or answering wrongly.
	err error
}

// pump runs the scheduling loop the Turn workflow shares (scheduler.Tracker.Pump)
// and ends the run once every tool is done.
func (t *run) pump() {
	t.tracker.Pump(t.start, t.yield)
	if t.tracker.Done() {
		t.finish(nil)
	}
}

func (t *run) yield(x *scheduler.Tracked) {
	t.context = t.context.Apply(x.Modifier)
	t.results = append(t.results, *x.Result)
}

// finish ends the run, with err when the tracker refused an outcome. Only the
// first call counts.
func (t *run) finish(err error) {
	if t.closed {
		return
	}
	t.closed, t.err = true, err
	t.cancelSiblings()
	close(t.done)
}

// check ends the run when the tracker refused an outcome: the Turn workflow
// panics there (a bug), and a run that went on would hang or answer wrongly.
func (t *run) check(err error) {
	if err != nil {
		t.finish(fmt.Errorf("executor: %w", err))
	}
}

func (t *run) start(x *scheduler.Tracked) bool {
	if t.closed {
		return false // the run ended with an error: start nothing more
	}
	def, _ := t.e.cfg.Tools.Lookup(x.Block.Name)
	id := x.Block.ID
	if err := def.ValidateRepaired(x.Block.Input); err != nil {
		t.check(t.tracker.Reject(id, tool.ErrorResult(id, tool.UseError(err.Error())))) // as the Turn workflow
		return true
	}
	if def.InSession() {
		_, err := t.tracker.Complete(id, tool.ErrorResult(id, "Error: tool not available in-process: "+x.Block.Name), nil)
		t.check(err)
		return true
	}
	ctx, cancel := context.WithCancel(t.siblingCtx)
	t.cancels[id] = cancel
	call := tool.Call{SessionID: t.e.cfg.SessionID, ToolUseID: id, Name: x.Block.Name, Input: x.Block.Input,
		Workdir: t.e.cfg.Workdir, ReadFiles: t.context.ReadFiles, PartialFiles: t.context.PartialFiles}
	go func() {
		out, err := def.Run(ctx, call)
		t.mu.Lock()
		defer t.mu.Unlock()
		delete(t.cancels, id)
		cancel()
		if t.closed {
			return // the run already ended with an error
		}
		switch {
		case err == nil:
			if note := t.notes[id]; note != "" && !out.IsError {
				out.Content += "\n\n" + note
			}
			cascade, err := t.tracker.Complete(id, tool.Result{ToolUseID: id, Content: out.Content, IsError: out.IsError}, out.Modifier)
			t.check(err)
			if cascade {
				t.cancelSiblings()
			}
		case errors.Is(err, context.Canceled):
			t.check(t.tracker.Cancelled(id))
		default:
			_, err := t.tracker.Complete(id, tool.ErrorResult(id, "Error: "+err.Error()), nil)
			t.check(err)
		}
		if !t.closed {
			t.pump()
		}
	}()
	return false
}
