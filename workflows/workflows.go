package workflows

import (
	"errors"

	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/tool"
)

// Workflows are toolpipe's workflows, the Turn and the Session, over the tools of
// the worker they run on. A worker registers them with the registry its tool
// activities run (activities.Activities.Registry): workflow code reads the tools'
// definitions from it while it schedules, the same way on every replay, so every
// worker of a task queue must hold the same tools (DESIGN §6). There is no
// process-wide registry: the workflows get theirs here, as methods of this value.
type Workflows struct {
	tools *tool.Registry
}

// New returns the workflows of a worker whose tools are tools.
func New(tools *tool.Registry) (*Workflows, error) {
	if tools == nil || len(tools.Names()) == 0 {
		return nil, errors.New("workflows: New needs the worker's tools (activities.Activities.Registry)")
	}
	return &Workflows{tools: tools}, nil
}

// Register registers the Turn and the Session on a worker under their workflow
// types.
func (w *Workflows) Register(r sdkworker.WorkflowRegistry) {
	r.RegisterWorkflowWithOptions(w.Turn, workflow.RegisterOptions{Name: TurnWorkflowName})
	r.RegisterWorkflowWithOptions(w.Session, workflow.RegisterOptions{Name: SessionWorkflowName})
}

// Tools is the registry the workflows schedule with.
func (w *Workflows) Tools() *tool.Registry { return w.tools }
