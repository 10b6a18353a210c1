package workflows_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/tool"
)

// probe stands in for the tool activities in scheduling tests: it records when each
// call starts and ends, and a per-id script decides what a call does. Waiting is
// done on conditions, never on sleeps.
type probe struct {
	mu      sync.Mutex
	changed chan struct{}
	log     []string
	running map[string]bool
	ended   map[string]bool
	maxRun  int
	script  map[string]func(ctx context.Context, p *probe) (tool.Output, error)
}

func newProbe() *probe {
	return &probe{changed: make(chan struct{}), running: map[string]bool{}, ended: map[string]bool{},
		script: map[string]func(context.Context, *probe) (tool.Output, error){}}
}

func (p *probe) register(r sdkworker.Registry) {
	plugin.RegisterWorkflows(r, activities.Builtins())
	for _, name := range activities.Builtins().Names() {
		r.RegisterActivityWithOptions(p.act, activity.RegisterOptions{Name: contract.ToolActivity(name)})
	}
}

func (p *probe) act(ctx context.Context, call tool.Call) (tool.Output, error) {
	p.note(func() {
		p.running[call.ToolUseID] = true
		p.log = append(p.log, "start "+call.ToolUseID)
		p.maxRun = max(p.maxRun, len(p.running))
	})
	defer p.note(func() {
		delete(p.running, call.ToolUseID)
		p.ended[call.ToolUseID] = true
		p.log = append(p.log, "end "+call.ToolUseID)
	})
	p.mu.Lock()
	fn := p.script[call.ToolUseID]
	p.mu.Unlock()
	if fn != nil {
		return fn(ctx, p)
	}
	return tool.Output{Content: "ok " + call.ToolUseID}, nil
}

func (p *probe) note(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f()
	close(p.changed)
	p.changed = make(chan struct{})
}

// await blocks until cond holds (checked under the lock), heartbeating so that a
// cancellation reaches the activity. It fails after 20s: the scheduling rule under
// test did not let the condition happen.
func (p *probe) await(ctx context.Context, what string, cond func() bool) error {
	deadline := time.After(20 * time.Second)
	for {
		p.mu.Lock()
		ok, ch := cond(), p.changed
		p.mu.Unlock()
		if ok {
			return nil
		}
		if activity.IsActivity(ctx) {
			activity.RecordHeartbeat(ctx)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline:
			return fmt.Errorf("probe: gave up waiting for %s", what)
		case <-time.After(100 * time.Millisecond): // heartbeat again
		}
	}
}

func (p *probe) on(id string, fn func(ctx context.Context, p *probe) (tool.Output, error)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.script[id] = fn
}

// waitStarted lets the call wait until another call has started (proof of overlap).
func waitStarted(other string) func(context.Context, *probe) (tool.Output, error) {
	return func(ctx context.Context, p *probe) (tool.Output, error) {
		if err := p.await(ctx, other+" to start", func() bool { return p.running[other] || p.ended[other] }); err != nil {
			return tool.Output{}, err
		}
		return tool.Output{Content: "overlapped " + other}, nil
	}
}

// blockUntilCancelled runs until its activity is cancelled.
func blockUntilCancelled(ctx context.Context, p *probe) (tool.Output, error) {
	err := p.await(ctx, "cancellation", func() bool { return false })
	if errors.Is(err, context.Canceled) {
		return tool.Output{}, err
	}
	return tool.Output{Content: "was never cancelled"}, nil
}

func (p *probe) events() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.log)
}

func (p *probe) index(ev string) int { return slices.Index(p.events(), ev) }

func raw(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func readB(id string) tool.Block {
	return tool.Block{ID: id, Name: tool.ReadName, Input: raw(map[string]any{"file_path": "/tmp/" + id})}
}
func editB(id string) tool.Block {
	return tool.Block{ID: id, Name: tool.EditName, Input: raw(map[string]any{"file_path": "/tmp/" + id, "old_string": "a", "new_string": "b"})}
}
func bashB(id, cmd string) tool.Block {
	return tool.Block{ID: id, Name: tool.BashName, Input: raw(map[string]any{"command": cmd})}
}
