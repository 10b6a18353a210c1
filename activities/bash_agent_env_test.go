package activities

import (
	"context"
	"regexp"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
)

// TestBashAsUnderClaudeCode: a command sees the variables Claude Code 2.1.328 sets
// (CLAUDECODE=1, GIT_EDITOR=true, …) and bash reports a program killed by a signal
// (test/parity: TestParityBashDetails).
func TestBashAsUnderClaudeCode(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	out, err := a.Bash(context.Background(), call(t, tool.BashName, dir, map[string]any{
		"command": `echo "$CLAUDECODE $CLAUDE_CODE_ENTRYPOINT $GIT_EDITOR $COREPACK_ENABLE_AUTO_PIN $CLAUDE_CODE_SESSION_ID"`}))
	if err != nil || out.Content != "1 sdk-cli true 0 s1" {
		t.Errorf("environment: %q %v", out.Content, err)
	}
	out, _ = a.Bash(context.Background(), call(t, tool.BashName, dir, map[string]any{"command": `sh -c 'kill -KILL $$'`}))
	if !out.IsError || !regexp.MustCompile(`^Exit code 137\n/bin/bash: line 1: +\d+ Killed +sh -c 'kill -KILL \$\$'$`).MatchString(out.Content) {
		t.Errorf("a killed program: %q", out.Content)
	}
	out, _ = a.Bash(context.Background(), call(t, tool.BashName, dir, map[string]any{"command": "trap 'echo bye' EXIT; echo hi; exit 3"}))
	if out.Content != "Exit code 3\nhi\nbye" {
		t.Errorf("the command's own EXIT trap and status: %q", out.Content)
	}
}
