package searchattr

import (
	"context"

	"go.temporal.io/api/operatorservice/v1"
)

// Present reports whether the namespace has toolpipe's required search attributes
// (Required) with their types, so that a Turn or Session may upsert them (their
// inputs' SearchAttributes), and whether it also has FailedCalls (the inputs'
// FailedCallsAttribute). The embedded server registers them itself; a cluster has
// them only if an operator added them:
//
//	temporal operator search-attribute create --name ToolpipeSessionID --type Keyword
//	temporal operator search-attribute create --name ToolpipeStatus --type Keyword
//	temporal operator search-attribute create --name ToolpipeFailedCalls --type Int
//
// Upserting one a namespace lacks would fail every workflow task of the workflow,
// so any doubt (no permission to list them, an old server) answers false. It is
// one ListSearchAttributes call.
func Present(ctx context.Context, op operatorservice.OperatorServiceClient, namespace string) (required, failedCalls bool) {
	resp, err := op.ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		return false, false
	}
	for name, want := range Required() {
		if resp.GetCustomAttributes()[name] != want {
			return false, false
		}
	}
	return true, resp.GetCustomAttributes()[FailedCalls] == Registered()[FailedCalls]
}
