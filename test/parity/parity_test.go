package parity

import "testing"

// TestParityBuiltinTools runs Read, Write, Edit and Bash calls, unknown tools and
// schema failures through Claude Code and toolpipe and compares every tool_result.
func TestParityBuiltinTools(t *testing.T) {
	compare(t, "builtin", builtinCases())
}

// TestParitySearchTools compares Glob and Grep. Their outputs are the search work's
// (another branch); cases that differ only because it is not merged are skipped.
func TestParitySearchTools(t *testing.T) {
	compare(t, "search", searchCases)
}
