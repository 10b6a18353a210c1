package main

import (
	"strings"
	"testing"
)

// Issue 24: the worker's secrets are out of its own process environment. A Bash
// call reading its parent (the starter, whose in-process worker runs it) finds
// none of them in /proc/$PPID/environ or `ps eww`, and runs in a session of its
// own; the starter still has them where it needs them (the model's key reaches
// the model: agent_e2e_test.go).
func TestWorkerSecretsAreNotInItsEnvironment(t *testing.T) {
	secrets := map[string]string{
		"ANTHROPIC_API_KEY":     "sk-ant-e2e-secret-1234",
		"ANTHROPIC_AUTH_TOKEN":  "auth-token-e2e-5678",
		"GITHUB_TOKEN":          "ghp_e2e_secret_9012",
		"AWS_SECRET_ACCESS_KEY": "aws-e2e-secret-3456",
		"MY_SERVICE_TOKEN":      "service-e2e-secret-7890",
	}
	work := t.TempDir()
	msg := writeJSON(t, work+"/msg.json", map[string]any{"role": "assistant", "content": []any{
		map[string]any{"type": "tool_use", "id": "b1", "name": "Bash", "input": map[string]any{
			"command": `tr '\0' '\n' < /proc/$PPID/environ; echo ---; ps eww -o args= -p $PPID; echo ---; ps -o sid= -p $PPID; ps -o sid= -p $$; echo parent=$PPID`}}}})
	cmd := starter(t, t.TempDir(), "run", "--workdir", work, msg)
	for k, v := range secrets {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Env = append(cmd.Env, "TOOLPIPE_TEST_PLAIN=plain-value-visible")
	out, stderr := output(t, "run", cmd)
	m := decode(t, out)
	text := m.Content[0].Content
	if m.Content[0].IsError || !strings.Contains(text, "TOOLPIPE_TEST_PLAIN=plain-value-visible") {
		t.Fatalf("the command did not read its parent's environment: %+v", m.Content[0])
	}
	for k, v := range secrets {
		if strings.Contains(text, v) || strings.Contains(text, k+"=") || strings.Contains(stderr, v) {
			t.Errorf("%s is visible to the tool:\n%s", k, text)
		}
	}
	parts := strings.Split(text, "---")
	sids := strings.Fields(parts[len(parts)-1])
	if len(sids) < 3 || sids[0] == sids[1] {
		t.Errorf("the command shares the worker's session: %q", parts[len(parts)-1])
	}
}
