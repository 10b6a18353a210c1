package worker

import (
	"time"

	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/workflows"
)

// DefaultTaskQueue is the task queue turns run on unless configured otherwise.
const DefaultTaskQueue = "toolpipe"

// Register registers toolpipe's workflows and tool activities on a worker.
func Register(r sdkworker.Registry, acts *activities.Activities) {
	RegisterWorkflows(r)
	acts.Register(r)
}

// RegisterWorkflows registers toolpipe's workflows only.
func RegisterWorkflows(r sdkworker.WorkflowRegistry) {
	r.RegisterWorkflowWithOptions(workflows.Turn, workflow.RegisterOptions{Name: workflows.TurnWorkflowName})
}

// Options are the worker options toolpipe needs. Cancellation reaches a running
// activity only in a heartbeat response, and the SDK batches heartbeats up to 80% of
// the heartbeat timeout: capping the throttle at half a second is what makes a Bash
// failure kill its siblings' processes promptly.
func Options() sdkworker.Options {
	return sdkworker.Options{
		MaxHeartbeatThrottleInterval:     500 * time.Millisecond,
		DefaultHeartbeatThrottleInterval: 500 * time.Millisecond,
	}
}
