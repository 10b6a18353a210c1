package workflows

import (
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// upsertEnded records in ToolpipeStatus how a workflow ended when it returns err:
// "cancelled" for a cancellation, "failed" for any other failure. A continue-as-new
// is no end, and a workflow without the search attributes has nothing to update.
// The upsert runs on a disconnected context: a cancelled workflow's context would
// refuse it, and it is the last command of the run.
func upsertEnded(ctx workflow.Context, searchAttributes bool, sessionID string, err error) {
	if err == nil || !searchAttributes || workflow.IsContinueAsNewError(err) {
		return
	}
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	if workflow.GetVersion(dctx, endedStatus, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return
	}
	status := StatusFailed
	if temporal.IsCanceledError(err) {
		status = StatusCancelled
	}
	upsertSearchAttributes(dctx, sessionID, status)
}
