package connect

import (
	"context"

	"github.com/toolpipe/toolpipe/searchattr"
)

// HasSearchAttributes reports whether the namespace has toolpipe's search
// attributes (searchattr.Present): always for the embedded server, which registers
// them itself; a cluster only if an operator added them.
func (c *Conn) HasSearchAttributes(ctx context.Context) bool {
	return c.Embedded || searchattr.Present(ctx, c.Client.OperatorService(), c.Namespace)
}
