package scheduler

import (
	"fmt"

	"github.com/toolpipe/toolpipe/tool"
)

// Reject completes an executing tool whose call never ran (its input failed
// validation). Unlike Complete it never starts the Bash sibling cascade: Claude Code
// cancels siblings when a Bash command fails, not when a Bash input is refused, so a
// rejected Bash input does not cancel its batch.
func (t *Tracker) Reject(id string, r tool.Result) error {
	x := t.Get(id)
	if x == nil || x.Status != Executing {
		return fmt.Errorf("scheduler: %q is not executing", id)
	}
	r.ToolUseID = id
	t.finish(x, r, nil)
	return nil
}
