package activities

import (
	"context"
	"time"

	"go.temporal.io/sdk/activity"
)

// heartbeatEvery is how often a running tool tells Temporal it is alive. Cancellation
// reaches an activity only through a heartbeat, so this bounds how fast a cancelled
// sibling's process is killed (with the worker's MaxHeartbeatThrottleInterval).
const heartbeatEvery = 500 * time.Millisecond

// keepAlive heartbeats until stop is called. Every heartbeat carries a Progress
// naming the call (so that a watcher can tell which pending activity is which tool);
// details, when non-nil, fills in the rest (Bash's output tail). Outside an activity
// it does nothing, so the tools can also run in-process.
func keepAlive(ctx context.Context, toolUseID string, details func() Progress) (stop func()) {
	if !activity.IsActivity(ctx) {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(heartbeatEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				var p Progress
				if details != nil {
					p = details()
				}
				p.ToolUseID = toolUseID
				activity.RecordHeartbeat(ctx, p)
			}
		}
	}()
	return func() { close(done) }
}
