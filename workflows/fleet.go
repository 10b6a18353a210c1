package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/tool"
)

// Placement on a fleet (issue 26, DESIGN §11). A session that asks for it (Place)
// is placed on one host before its first turn: PlaceSession runs on the shared
// queue, and the worker that takes it answers with its own host and that host's
// task queue when it has room (max-sessions), else fails retryably so that another
// worker takes the retry. From then on every activity that needs the workspace (the
// tools, command hooks, path resolution, the transcript, MCP servers, background
// shells) goes to the host's queue; the model calls, the conversation store, prompt
// hooks and compaction stay on the shared queue, where any host's worker serves
// them. The placement is workflow state: a continued run and every sub-agent get
// their session's, and the session's details show it.

// placeTimeout bounds one PlaceSession attempt; the retries go on until a host has
// room, each possibly on another host.
const placeTimeout = 30 * time.Second

// place puts the session on a host when it asks for placement and has none yet.
func (s *session) place(ctx workflow.Context) error {
	if !s.in.Place || s.in.Placement != nil {
		return nil
	}
	if workflow.GetVersion(ctx, sessionPlacement, workflow.DefaultVersion, 1) < 1 {
		return nil
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: placeTimeout,
		Summary:             "Place session " + s.in.SessionID + " on a host",
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 1.5, MaximumInterval: 2 * time.Second,
		},
	})
	var p contract.Placement
	if err := workflow.ExecuteActivity(actx, contract.PlaceSessionActivityName,
		contract.PlaceRequest{SessionID: s.in.SessionID}).Get(ctx, &p); err != nil {
		return err
	}
	s.in.Placement = &p
	s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf("placed on host %s (task queue %s)", p.Host, p.Queue)})
	return nil
}

// toolQueue is the task queue of the session's host; empty when not placed.
func (s *session) toolQueue() string {
	if s.in.Placement == nil {
		return ""
	}
	return s.in.Placement.Queue
}

// release gives the session's room on its host back when the session ends. A host
// that is gone cannot answer: the attempt gives up after a short while, and the
// session ends all the same.
func (s *session) release(ctx workflow.Context) {
	if s.in.Placement == nil || s.in.Depth > 0 { // a sub-agent shares its parent's room
		return
	}
	actx := workflow.WithActivityOptions(onHost(ctx, s.toolQueue()), workflow.ActivityOptions{
		ScheduleToCloseTimeout: 30 * time.Second,
		Summary:                "Release session " + s.in.SessionID + " on host " + s.in.Placement.Host,
		RetryPolicy:            &temporal.RetryPolicy{MaximumAttempts: 3},
	})
	_ = workflow.ExecuteActivity(actx, contract.ReleaseSessionActivityName,
		contract.ReleaseRequest{SessionID: s.in.SessionID}).Get(ctx, nil)
}

// onHost sends the activities started in ctx to queue, a host's task queue; an
// empty queue leaves ctx as it is (the workflow's own queue).
func onHost(ctx workflow.Context, queue string) workflow.Context {
	if queue == "" {
		return ctx
	}
	return workflow.WithTaskQueue(ctx, queue)
}

// onShared sends the activities started in ctx to the workflow's own (shared)
// queue: the model calls of prompt hooks and custom tools, which no host's queue
// needs to serve.
func onShared(ctx workflow.Context) workflow.Context {
	return workflow.WithTaskQueue(ctx, workflow.GetInfo(ctx).TaskQueueName)
}

// queueOf is the task queue of a call of the tool name: the session's host for
// toolpipe's own tools and MCP tools, the workflow's own for a custom tool (the
// embedding program's worker registers it on the shared queue).
func (t *turn) queueOf(def *tool.Definition, name string) string {
	if t.in.ToolQueue == "" {
		return ""
	}
	if def.IsBuiltin() || tool.IsMCPName(name) {
		return t.in.ToolQueue
	}
	return workflow.GetInfo(t.ctx).TaskQueueName
}
