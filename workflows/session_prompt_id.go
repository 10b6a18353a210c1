package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/hooks"
)

// userPrompt queues a message the user sent: a new prompt, so the hooks that follow
// get a new prompt_id (a hook's feedback keeps the prompt it belongs to).
func (s *session) userPrompt(text string) {
	s.promptSeq = s.eventBase + len(s.events)
	s.addUser(text)
}

// promptID is the hooks' prompt_id in a session, as Claude Code gives it: one per
// user prompt, the same in the session's hooks (UserPromptSubmit, Stop, SessionEnd)
// and in the tool hooks of every turn that answers the prompt. It is derived from the
// session's first run and the prompt's event index, so replay and continue-as-new
// give the same id.
func (s *session) promptID(ctx workflow.Context) string {
	return hooks.StableUUID("prompt", fmt.Sprintf("%s/%d", workflow.GetInfo(ctx).FirstRunID, s.promptSeq))
}
