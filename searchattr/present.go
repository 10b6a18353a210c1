package searchattr

import (
	"context"

	"go.temporal.io/api/operatorservice/v1"
)

// Present reports whether the namespace has every one of toolpipe's search
// attributes (Registered) with its type, so that a Turn or Session may upsert them
// (their inputs' SearchAttributes). The embedded server registers them itself; a
// cluster has them only if an operator added them:
//
//	temporal operator search-attribute create --name ToolpipeSessionID --type Keyword
//	temporal operator search-attribute create --name ToolpipeStatus --type Keyword
//
// Upserting one a namespace lacks would fail every workflow task of the workflow,
// so any doubt (no permission to list them, an old server) answers false.
func Present(ctx context.Context, op operatorservice.OperatorServiceClient, namespace string) bool {
	resp, err := op.ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		return false
	}
	for name, want := range Registered() {
		if resp.GetCustomAttributes()[name] != want {
			return false
		}
	}
	return true
}
