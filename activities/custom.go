package activities

import (
	"context"
	"fmt"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/tool"
)

// RegisterCustom registers the function of a custom tool (one tool.Register added)
// as the activity the Turn schedules for its calls, under the tool's name, as the
// built-ins are: it heartbeats while the function runs (so a lost worker is noticed
// and a cancellation reaches ctx), its output is size-controlled against the tool's
// threshold, and each call gets a span and the tool metrics.
func (a *Activities) RegisterCustom(r worker.ActivityRegistry, name string, fn ToolFunc) error {
	if tool.IsBuiltin(name) {
		return fmt.Errorf("activities: %s is a built-in tool; its activity is registered by Register", name)
	}
	if _, ok := tool.Lookup(name); !ok {
		return fmt.Errorf("activities: tool %s is not registered (tool.Register) in this process; the workflows would not offer or schedule it", name)
	}
	if fn == nil {
		return fmt.Errorf("activities: tool %s has no function to run", name)
	}
	r.RegisterActivityWithOptions(failingOnError(a.observed(name, a.limited(heartbeating(fn)))), activity.RegisterOptions{Name: name})
	return nil
}

// heartbeating keeps the activity alive while fn runs: built-in tools heartbeat
// themselves, a custom function should not have to know about Temporal.
func heartbeating(fn ToolFunc) ToolFunc {
	return func(ctx context.Context, call tool.Call) (tool.Output, error) {
		stop := keepAlive(ctx, call.ToolUseID, nil)
		defer stop()
		return fn(ctx, call)
	}
}
