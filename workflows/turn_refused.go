package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/tool"
)

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
