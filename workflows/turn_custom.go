package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/tool"
)

// customRecord is what a turn records about one custom tool name.
type customRecord struct {
	Known       bool   `json:"known"`
	Fingerprint string `json:"fingerprint,omitempty"`
}

// lookupRecorded resolves a name that is neither an original tool nor an MCP tool:
// a program's own tool, or a built-in tool added after registries (NotebookEdit).
// Every worker on a task queue must hold the same tools (its registry, Workflows).
// When they do not:
//   - a name this turn recorded as unknown stays unknown on every worker (the call
//     got "No such tool available"), even on one that knows it;
//   - a name this turn recorded as known fails the workflow task, with a message
//     naming the tool, on a worker that lacks it or has another contract for it:
//     Temporal retries the task, and a worker with the right registry continues the
//     turn, instead of a nondeterminism error or a different result.
func (t *turn) lookupRecorded(name string) (*tool.Definition, bool) {
	if t.customs == nil {
		t.customs = map[string]bool{}
	}
	d, have := t.tools.Lookup(name)
	known, decided := t.customs[name]
	if !decided {
		if workflow.GetVersion(t.ctx, customToolsRecorded, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
			// Turns from before custom tools: only the original and MCP tools
			// existed, so such a name was unknown.
			known = false
		} else {
			rec := customRecord{Known: have}
			if have {
				rec.Fingerprint = d.Fingerprint()
			}
			var got customRecord
			if err := workflow.SideEffect(t.ctx, func(workflow.Context) any { return rec }).Get(&got); err != nil {
				panic(fmt.Sprintf("turn: custom tool %s: %v", name, err))
			}
			if got.Known && !have {
				panic(fmt.Sprintf("turn: this turn calls the tool %s, which this worker does not have: "+
					"every worker on the task queue must hold the same tools (toolpipe.Options.Tools, one toolpipe version); "+
					"a worker that has %s will continue the turn", name, name))
			}
			if got.Known && got.Fingerprint != d.Fingerprint() {
				panic(fmt.Sprintf("turn: this worker has the tool %s with another contract (schema, "+
					"description, threshold or interrupt behaviour) than the worker that started the call: "+
					"every worker on the task queue must hold the same tools", name))
			}
			known = got.Known
		}
		t.customs[name] = known
	}
	if !known {
		return nil, false
	}
	return d, true
}
