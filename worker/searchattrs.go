package worker

import (
	"context"

	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/searchattr"
)

// HasSearchAttributes reports whether the namespace has toolpipe's search
// attributes (ToolpipeSessionID, ToolpipeStatus, both Keyword), so that a turn may
// upsert them (workflows.TurnInput.SearchAttributes). The embedded server registers
// them itself; a cluster has them only if an operator added them:
//
//	temporal operator search-attribute create --name ToolpipeSessionID --type Keyword
//	temporal operator search-attribute create --name ToolpipeStatus --type Keyword
//
// Upserting one a namespace lacks would fail every workflow task of the turn, so
// any doubt (no permission to list them, an old server) answers false.
func (c *Conn) HasSearchAttributes(ctx context.Context) bool {
	if c.Embedded {
		return true
	}
	return hasSearchAttributes(ctx, c.Client, c.Namespace)
}

// HasFailedCallsAttribute reports whether the namespace also has
// ToolpipeFailedCalls (Int), which finished turns set to their number of failed calls
// (workflows.TurnInput.FailedCallsAttribute); on a cluster:
//
//	temporal operator search-attribute create --name ToolpipeFailedCalls --type Int
func (c *Conn) HasFailedCallsAttribute(ctx context.Context) bool {
	if c.Embedded {
		return true
	}
	return hasSearchAttributes(ctx, c.Client, c.Namespace, searchattr.FailedCalls)
}

// hasSearchAttributes: the namespace has the required attributes (searchattr.Required)
// and those named, with toolpipe's types.
func hasSearchAttributes(ctx context.Context, c client.Client, namespace string, also ...string) bool {
	resp, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		return false
	}
	want := searchattr.Required()
	for _, name := range also {
		want[name] = searchattr.Registered()[name]
	}
	for name, want := range want {
		if resp.GetCustomAttributes()[name] != want {
			return false
		}
	}
	return true
}
