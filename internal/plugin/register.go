package plugin

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/interceptor"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// DefaultTaskQueue is the task queue turns run on unless configured otherwise.
const DefaultTaskQueue = "toolpipe"

// Register registers toolpipe's workflows and tool activities on a worker, and the
// agent session with its model settings from the environment (ANTHROPIC_API_KEY,
// ANTHROPIC_BASE_URL).
func Register(r sdkworker.Registry, acts *activities.Activities) {
	RegisterWithAgent(r, acts, activities.AgentConfigFromEnv(acts.StateDir(), nil))
}

// RegisterWithAgent is Register with the agent's model settings given; a nil Intake
// hands tool_use blocks to turns through the worker's own client.
func RegisterWithAgent(r sdkworker.Registry, acts *activities.Activities, cfg activities.AgentConfig) {
	registerWorkflows(r, acts.Registry(), acts.LegacyNames())
	acts.Register(r)
	cfg.LegacyNames = cfg.LegacyNames || acts.LegacyNames()
	if cfg.Intake == nil {
		cfg.Intake = turnIntake{tools: acts.Registry()}
	}
	if cfg.StateDir == "" {
		cfg.StateDir = acts.StateDir()
	}
	if cfg.Blob == nil {
		cfg.Blob = acts.Blob()
	}
	if cfg.Tools == nil {
		cfg.Tools = acts.Registry() // the model is offered what the worker runs
	}
	agent, err := activities.NewAgent(cfg)
	if err != nil {
		// The state directory was validated by activities.New and the intake is set:
		// only a programming error gets here.
		panic(fmt.Sprintf("worker: agent activities: %v", err))
	}
	agent.Register(r)
}

// RegisterWorkflows registers toolpipe's workflows only, the Turn and the Session,
// over the worker's tools (its activities' Registry; activities.Builtins for a
// worker that runs no tool activities), under their names and an older
// toolpipe's: for a replayer, or a worker of nothing but toolpipe.
func RegisterWorkflows(r sdkworker.WorkflowRegistry, tools *tool.Registry) {
	registerWorkflows(r, tools, true)
}

func registerWorkflows(r sdkworker.WorkflowRegistry, tools *tool.Registry, legacy bool) {
	w, err := workflows.New(tools)
	if err != nil {
		panic(fmt.Sprintf("worker: %v", err)) // a registry with no tool: a programming error
	}
	w.Register(r, legacy)
}

// Options are the worker options toolpipe needs.
//
//   - Cancellation reaches a running activity only in a heartbeat response, and the
//     SDK batches heartbeats up to 80% of the heartbeat timeout: capping the throttle
//     at half a second is what makes a Bash failure kill its siblings' processes
//     promptly.
//   - A queue scan can start many tools in one workflow task; reserving up to 32
//     eager activities lets them all come back with the task's completion instead of
//     going through matching (the SDK's default is 3).
//   - A dead worker's sticky queue holds its turns' next workflow task until the
//     sticky schedule-to-start timeout: 2s instead of 5s shortens recovery, at the cost
//     of a full replay when a live but overloaded worker is slower than that.
//   - A workflow task validates every tool input it receives: a 10 MB Write takes
//     about a second of JSON work on a busy machine, which the SDK's default 1s
//     deadlock detector would fail and retry forever. 5s leaves room (inputs are
//     bounded by tool.Definition.MaxInputBytes) and stays under the 10s task timeout.
//   - Tools outlive server blips: heartbeats go through blipProof (heartbeat.go), so
//     only the server's answer or a really passed heartbeat timeout stops a tool.
func Options() sdkworker.Options {
	eager := 32
	return sdkworker.Options{
		DeadlockDetectionTimeout:                    5 * time.Second,
		MaxHeartbeatThrottleInterval:                500 * time.Millisecond,
		DefaultHeartbeatThrottleInterval:            500 * time.Millisecond,
		MaxEagerActivityReservationsPerWorkflowTask: &eager,
		StickyScheduleToStartTimeout:                2 * time.Second,
		Interceptors:                                []interceptor.WorkerInterceptor{&blipProof{}},
	}
}

// MergeOptions returns o with what toolpipe's workflows and tools need (Options):
// settings o already has are kept where they are at least as strict, and the
// blip-proof heartbeat interceptor is put before o's own.
func MergeOptions(o sdkworker.Options) sdkworker.Options {
	need := Options()
	o.DeadlockDetectionTimeout = max(o.DeadlockDetectionTimeout, need.DeadlockDetectionTimeout)
	if o.MaxHeartbeatThrottleInterval == 0 || o.MaxHeartbeatThrottleInterval > need.MaxHeartbeatThrottleInterval {
		o.MaxHeartbeatThrottleInterval = need.MaxHeartbeatThrottleInterval
	}
	if o.DefaultHeartbeatThrottleInterval == 0 || o.DefaultHeartbeatThrottleInterval > need.DefaultHeartbeatThrottleInterval {
		o.DefaultHeartbeatThrottleInterval = need.DefaultHeartbeatThrottleInterval
	}
	if o.MaxEagerActivityReservationsPerWorkflowTask == nil {
		o.MaxEagerActivityReservationsPerWorkflowTask = need.MaxEagerActivityReservationsPerWorkflowTask
	}
	if o.StickyScheduleToStartTimeout == 0 {
		o.StickyScheduleToStartTimeout = need.StickyScheduleToStartTimeout
	}
	// First, so that the interceptors after it (tracing) see the tool's own outcome,
	// not the pending result blipProof hands the SDK once it reported it.
	o.Interceptors = append(need.Interceptors, o.Interceptors...)
	return o
}
