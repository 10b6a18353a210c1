package toolpipe

import (
	"context"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
)

// PollerRecent is how long after its last poll a worker counts as polling a task
// queue: a poll lasts up to a minute, and the server keeps pollers it has not heard
// of for a while.
const PollerRecent = 2 * time.Minute

// QueuePolled reports whether a worker polls the workflow task queue now (asked for
// work within PollerRecent); known is false when the server cannot tell. A query
// is answered only by a polling worker: without one it waits for its timeout.
func QueuePolled(ctx context.Context, c client.Client, queue string) (polled, known bool) {
	if queue == "" {
		return false, false
	}
	d, err := c.DescribeTaskQueue(ctx, queue, enumspb.TASK_QUEUE_TYPE_WORKFLOW)
	if err != nil {
		return false, false
	}
	for _, p := range d.GetPollers() {
		if t := p.GetLastAccessTime(); t != nil && time.Since(t.AsTime()) < PollerRecent {
			return true, true
		}
	}
	return false, true
}
