package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool"
)

// refuseSessionTool refuses, before the gate, a session tool's call that cannot
// run: any of them in a turn without a session, and ExitPlanMode outside plan
// mode, in Claude Code's words (it refuses it before asking anyone).
func (t *turn) refuseSessionTool(b tool.Block) (tool.Result, bool) {
	if !isSessionTool(b.Name) {
		return tool.Result{}, false
	}
	if workflow.GetInfo(t.siblingCtx).ParentWorkflowExecution == nil {
		return tool.ErrorResult(b.ID, noSessionTool(b.Name)), true
	}
	if b.Name == tool.ExitPlanModeName && t.mode() != permissions.Plan {
		return tool.ErrorResult(b.ID, tool.UseError(tool.NotInPlanMode)), true
	}
	return tool.Result{}, false
}

// mode is the permission mode the turn runs in; a turn without a policy runs
// every call.
func (t *turn) mode() permissions.Mode {
	if t.in.Settings == nil || t.in.Settings.Permissions == nil {
		return permissions.BypassPermissions
	}
	return t.in.Settings.Permissions.Mode
}
