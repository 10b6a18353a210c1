package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/hooks"
)

// preCompact runs the PreCompact hooks whose matcher matches the trigger (manual or
// auto) before a compaction, with Claude Code's input (trigger, custom_instructions),
// and returns the summary's instructions. As in Claude Code, the hooks are told and
// cannot stop the compaction; their messages reach the user. Sessions from before
// this event could not have its hooks (the loader ignored them), so no recorded
// session runs the activities below.
func (s *session) preCompact(ctx workflow.Context, trigger, instructions string) string {
	cmds := s.sessionHooks(hooks.PreCompact, trigger)
	if len(cmds) == 0 {
		return instructions
	}
	s.runSessionHooks(ctx, hooks.PreCompact, cmds, func(in *hooks.Input) {
		in.Trigger = trigger
		in.CustomInstructions = &instructions
	})
	return instructions
}
