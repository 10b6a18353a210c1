package workflows

import (
	"errors"

	"github.com/toolpipe/toolpipe/contract"

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
// types (contract.Prefix); legacy registers them under the names an older
// toolpipe started them with too ("Turn", "Session"), for the ones still running.
//
// They are registered as function literals, not as the methods: the SDK looks a
// workflow type up among the Go names of the functions registered under another
// name first, so a method named Session registered as "toolpipe.Session" would
// take the program's own "Session" workflow's tasks (an SDK v1.50 behaviour;
// TestProgramsOwnNamesShareTheWorker).
func (w *Workflows) Register(r Registrar, legacy bool) {
	turn := func(ctx workflow.Context, in TurnInput) (TurnResult, error) { return w.Turn(ctx, in) }
	session := func(ctx workflow.Context, in SessionInput) (SessionResult, error) { return w.Session(ctx, in) }
	for _, name := range names(contract.TurnWorkflowName, legacy) {
		r.RegisterWorkflowWithOptions(turn, workflow.RegisterOptions{Name: name, DisableAlreadyRegisteredCheck: legacy})
	}
	for _, name := range names(contract.SessionWorkflowName, legacy) {
		r.RegisterWorkflowWithOptions(session, workflow.RegisterOptions{Name: name, DisableAlreadyRegisteredCheck: legacy})
	}
}

// Registrar is what Register needs of a worker or a replayer.
type Registrar interface {
	RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
}

// names are the names a type is registered under.
func names(name string, legacy bool) []string {
	if legacy {
		return []string{name, contract.Unprefixed(name)}
	}
	return []string{name}
}

// Tools is the registry the workflows schedule with.
func (w *Workflows) Tools() *tool.Registry { return w.tools }
