package activities

import (
	"context"

	"github.com/toolpipe/toolpipe/tool"
)

// WebFetch is not enabled yet: the model is told so and can use another tool.
func (a *Activities) WebFetch(ctx context.Context, call tool.Call) (tool.Output, error) {
	return errorOutput("WebFetch is not available on this worker yet")
}
