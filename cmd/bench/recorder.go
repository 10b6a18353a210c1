package main

import (
	"context"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/tool"
)

// recorder wraps the real tool activities to note when each call starts, which is
// what the streaming latency is measured against.
type recorder struct {
	tools  *tool.Registry
	mu     sync.Mutex
	starts map[string]time.Time
	wait   map[string]chan time.Time
}

func newRecorder(tools *tool.Registry) *recorder {
	return &recorder{tools: tools, starts: map[string]time.Time{}, wait: map[string]chan time.Time{}}
}

func (r *recorder) register(w sdkworker.Worker) {
	for _, name := range r.tools.Names() {
		def, _ := r.tools.Lookup(name)
		if def.InSession() {
			continue
		}
		w.RegisterActivityWithOptions(func(ctx context.Context, call tool.Call) (tool.Output, error) {
			r.started(call.ToolUseID)
			return def.Run(ctx, call)
		}, activity.RegisterOptions{Name: name})
	}
}

func (r *recorder) started(id string) {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.starts[id]; !ok {
		r.starts[id] = now
		if ch, ok := r.wait[id]; ok {
			ch <- now
		}
	}
}

// expect returns a channel that receives the start time of id.
func (r *recorder) expect(id string) <-chan time.Time {
	ch := make(chan time.Time, 1)
	r.mu.Lock()
	defer r.mu.Unlock()
	if t, ok := r.starts[id]; ok {
		ch <- t
	} else {
		r.wait[id] = ch
	}
	return ch
}
