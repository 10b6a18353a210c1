package workflows

import "go.temporal.io/sdk/workflow"

// preCompact runs before a compaction and returns the summary's instructions. The
// PreCompact hook event (trigger, custom_instructions) is not wired to the hooks
// runner yet; the instructions pass through unchanged.
func (s *session) preCompact(ctx workflow.Context, trigger, instructions string) string {
	return instructions
}
