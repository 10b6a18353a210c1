package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/tool"
)

// deniedCallAlone is the change id under which a call that never ran because it was
// denied (by a PreToolUse hook, a permission rule or the user) or because a hook
// rewrote its input into one that fails validation cancels no sibling, as in Claude
// Code: only a Bash command that ran and failed does. Turns recorded before it
// cascaded on a denied Bash, and replay so.
const deniedCallAlone = "denied-call-alone"

// refused completes a call that never ran. The version is asked only here, when a
// call is refused, so that turns without one record no marker.
func (t *turn) refused(ctx workflow.Context, id string, r tool.Result) {
	if workflow.GetVersion(ctx, deniedCallAlone, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		t.complete(id, r, nil)
		return
	}
	delete(t.cancels, id)
	if err := t.tracker.Reject(id, r); err != nil {
		panic(err)
	}
	t.pump()
}
