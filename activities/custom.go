package activities

import (
	"context"

	"github.com/toolpipe/toolpipe/tool"
)

// heartbeating keeps the activity alive while fn runs: built-in tools heartbeat
// themselves, a custom function should not have to know about Temporal.
func heartbeating(fn ToolFunc) ToolFunc {
	return func(ctx context.Context, call tool.Call) (tool.Output, error) {
		stop := keepAlive(ctx, call.ToolUseID, nil)
		defer stop()
		return fn(ctx, call)
	}
}
