package parity

import "testing"

// TestParityBuiltinTools runs Read, Write, Edit and Bash calls, unknown tools and
// schema failures through Claude Code and toolpipe and compares every tool_result.
func TestParityBuiltinTools(t *testing.T) {
	compare(t, "builtin", builtinCases())
}
