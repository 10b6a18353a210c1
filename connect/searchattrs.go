package connect

import (
	"context"

	"github.com/toolpipe/toolpipe/searchattr"
)

// HasSearchAttributes reports whether the namespace has toolpipe's search
// attributes (searchattr.Present): always for the embedded server, which registers
// them itself; a cluster only if an operator added them.
func (c *Conn) HasSearchAttributes(ctx context.Context) bool {
	if c.Embedded {
		return true
	}
	has, _ := searchattr.Present(ctx, c.Client.OperatorService(), c.Namespace)
	return has
}

// HasFailedCallsAttribute reports whether the namespace also has
// ToolpipeFailedCalls (Int), which finished turns set to their number of failed
// calls (workflows.TurnInput.FailedCallsAttribute).
func (c *Conn) HasFailedCallsAttribute(ctx context.Context) bool {
	if c.Embedded {
		return true
	}
	has, failed := searchattr.Present(ctx, c.Client.OperatorService(), c.Namespace)
	return has && failed
}
