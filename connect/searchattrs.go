package connect

import (
	"context"
	"sync"

	"github.com/toolpipe/toolpipe/searchattr"
)

// attrProbe is one ListSearchAttributes per connection: the answer does not change
// while a process runs (an operator adds attributes between runs).
type attrProbe struct {
	once             sync.Once
	required, failed bool
}

// probe asks the namespace once which of toolpipe's attributes it has: always
// every one for the embedded server, which registers them itself.
func (c *Conn) probe(ctx context.Context) (required, failed bool) {
	c.attrs.once.Do(func() {
		if c.Embedded {
			c.attrs.required, c.attrs.failed = true, true
			return
		}
		c.attrs.required, c.attrs.failed = searchattr.Present(ctx, c.Client.OperatorService(), c.Namespace)
	})
	return c.attrs.required, c.attrs.required && c.attrs.failed
}

// HasSearchAttributes reports whether the namespace has toolpipe's required
// search attributes (searchattr.Present): always for the embedded server; a
// cluster only if an operator added them.
func (c *Conn) HasSearchAttributes(ctx context.Context) bool {
	required, _ := c.probe(ctx)
	return required
}

// HasFailedCallsAttribute reports whether the namespace also has
// ToolpipeFailedCalls (Int), which finished turns set to their number of failed
// calls (workflows.TurnInput.FailedCallsAttribute). It shares
// HasSearchAttributes' one request.
func (c *Conn) HasFailedCallsAttribute(ctx context.Context) bool {
	_, failed := c.probe(ctx)
	return failed
}
