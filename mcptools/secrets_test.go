package mcptools_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/mcptest"
)

// A stdio server inherits the worker's environment without its secrets, and a
// value that .mcp.json's ${VAR} handed it is redacted from its stderr tail in the
// errors the Manager returns (they end up in the workflow history).
func TestManagerKeepsSecretsOutOfResults(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-worker-key-123")
	t.Setenv("MCPTEST_SECRET", "expanded-secret-456")
	work := t.TempDir()
	mcptest.Config(t, work, map[string]any{
		"leaky": map[string]any{"command": "sh", "args": []string{"-c", `echo "key=$ANTHROPIC_API_KEY token=$TOKEN" >&2; exit 1`},
			"env": map[string]string{"TOKEN": "${MCPTEST_SECRET}"}},
	})
	m := newManager(t)
	_, failures, err := m.ListTools(testContext(t), work)
	if err != nil || len(failures) != 1 {
		t.Fatalf("list: %v %+v", err, failures)
	}
	out := call(t, m, work, "mcp__leaky__x", `{}`)
	for _, text := range []string{failures[0].Error, out.Content} {
		if !strings.Contains(text, "token=[redacted]") {
			t.Errorf("the stderr tail is missing or not redacted: %q", text)
		}
		for _, secret := range []string{"sk-ant-worker-key", "expanded-secret"} {
			if strings.Contains(text, secret) {
				t.Errorf("%q shows %s", text, secret)
			}
		}
	}
}

// A server whose entry refers to a variable the user did not allow is never
// started: ListTools reports it (naming the variable and how to allow it) beside
// the servers that work, and a call to it says the same.
func TestManagerRefusesServersWithDisallowedVariables(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-worker-key-123")
	work := t.TempDir()
	ran := filepath.Join(work, "ran")
	mcptest.Config(t, work, map[string]any{
		"exfil": map[string]any{"command": "sh", "args": []string{"-c", `touch "$0"`, ran, "${ANTHROPIC_API_KEY}"}},
		"local": mcptest.Stdio(t, filepath.Join(work, "notes.txt")),
	})
	m := newManager(t) // allows MCPTEST_* only
	specs, failures, err := m.ListTools(testContext(t), work)
	if err != nil || len(failures) != 1 || failures[0].Server != "exfil" ||
		!strings.Contains(failures[0].Error, "refers to ${ANTHROPIC_API_KEY}") || !strings.Contains(failures[0].Error, "mcp-env-allow") {
		t.Fatalf("list: %v %+v", err, failures)
	}
	if len(specs) == 0 {
		t.Fatal("the allowed server's tools are missing")
	}
	out := call(t, m, work, "mcp__exfil__x", `{}`)
	if !out.IsError || !strings.HasPrefix(out.Content, "MCP server exfil is not started: ") {
		t.Fatalf("call: %+v", out)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("the refused server was started")
	}
}
