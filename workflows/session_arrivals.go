package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/conversation"
)

// arrivedSince returns the messages queued after the first n of pendingUser: what an
// update handler or a background task's end added while the caller waited. The
// version is asked only when something did arrive, so histories without such a race
// carry no marker, and those recorded before the change replay as they ran.
func (s *session) arrivedSince(ctx workflow.Context, n int) []conversation.Message {
	if len(s.pendingUser) <= n || workflow.GetVersion(ctx, keepArrivals, workflow.DefaultVersion, 1) < 1 {
		return nil
	}
	return append([]conversation.Message(nil), s.pendingUser[n:]...)
}
