package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/tool"
)

// customToolsRecorded is the change id under which a turn records, the first time a
// call names a tool that is neither built in nor an MCP tool, whether the worker's
// registry had it (and which contract): replays decide from the record, never from the
// registry of the worker that happens to replay.
const customToolsRecorded = "custom-tools-recorded"

// customLookup finds a custom tool in this worker's registry; tests replace it to play
// workers with other registries.
var customLookup = tool.Lookup

// customRecord is what a turn records about one custom tool name.
type customRecord struct {
	Known       bool   `json:"known"`
	Fingerprint string `json:"fingerprint,omitempty"`
}

// lookupCustom resolves a name that is neither built in nor an MCP tool. Custom tools
// are registered per process (tool.Register), and every worker on a task queue must
// register the same ones. When they do not:
//   - a name this turn recorded as unknown stays unknown on every worker (the call
//     got "No such tool available"), even on one that knows it;
//   - a name this turn recorded as known fails the workflow task, with a message
//     naming the tool, on a worker that lacks it or has another contract for it:
//     Temporal retries the task, and a worker with the right registry continues the
//     turn, instead of a nondeterminism error or a different result.
func (t *turn) lookupCustom(name string) (*tool.Definition, bool) {
	if t.customs == nil {
		t.customs = map[string]bool{}
	}
	d, have := customLookup(name)
	known, decided := t.customs[name]
	if !decided {
		if workflow.GetVersion(t.ctx, customToolsRecorded, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
			// Turns from before custom tools: only built-in and MCP tools existed,
			// so such a name was unknown.
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
				panic(fmt.Sprintf("turn: this turn calls the custom tool %s, which this worker does not register: "+
					"every worker on the task queue must register the same custom tools (toolpipe.Tool); "+
					"a worker that registers %s will continue the turn", name, name))
			}
			if got.Known && got.Fingerprint != d.Fingerprint() {
				panic(fmt.Sprintf("turn: this worker registers the custom tool %s with another contract (schema, "+
					"description, threshold or interrupt behaviour) than the worker that started the call: "+
					"every worker on the task queue must register the same custom tools", name))
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
