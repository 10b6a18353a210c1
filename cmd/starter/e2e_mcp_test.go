package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/mcptest"
)

// End-to-end tests of MCP tools: `starter run` in a working directory whose
// .mcp.json names the test MCP server (internal/mcptest), over stdio and HTTP.

// mcpRun runs one message in work with its own state directory and extra
// environment, and returns the results by tool_use id, and stderr.
func mcpRun(t *testing.T, work, state string, env []string, flags []string, blocks ...string) (map[string]string, map[string]bool, string) {
	t.Helper()
	msg := writeMessage(t, `{"role":"assistant","content":[`+strings.Join(blocks, ",")+`]}`)
	// The workspace is trusted (its .mcp.json starts programs) and the tests'
	// variable may be expanded, as a user would say.
	cmd := hermetic(t, starter(t, state, append(append([]string{"run", "--trust", "--workdir", work}, flags...), msg)...))
	cmd.Env = append(cmd.Env, append([]string{"TOOLPIPE_MCP_ENV_ALLOW=E2E_MCP_TOKEN"}, env...)...)
	out, stderr := output(t, "run", cmd)
	content, isErr := map[string]string{}, map[string]bool{}
	for _, c := range decode(t, out).Content {
		content[c.ToolUseID], isErr[c.ToolUseID] = c.Content, c.IsError
	}
	return content, isErr, stderr
}

// Stdio and HTTP servers; two read-only calls overlap (each gate call returns only
// once both have arrived) while the call with side effects runs alone; the HTTP
// server gets the configured header with its ${VAR} expanded.
func TestMCPToolsEndToEnd(t *testing.T) {
	work := t.TempDir()
	url := mcptest.StartHTTP(t, "MCPTEST_TOKEN=tok-123", "MCPTEST_NOTES="+filepath.Join(work, "web-notes.txt"))
	mcptest.Config(t, work, map[string]any{
		"test": mcptest.Stdio(t, filepath.Join(work, "notes.txt")),
		"web":  map[string]any{"type": "http", "url": url, "headers": map[string]string{"Authorization": "Bearer ${E2E_MCP_TOKEN}"}},
	})
	got, isErr, stderr := mcpRun(t, work, t.TempDir(), []string{"E2E_MCP_TOKEN=tok-123"}, nil,
		toolUse("g1", "mcp__test__gate", map[string]any{"id": "a", "want": 2}),
		toolUse("g2", "mcp__test__gate", map[string]any{"id": "b", "want": 2}),
		toolUse("w1", "mcp__test__write_note", map[string]any{"text": "alone"}),
		toolUse("e1", "mcp__test__echo", map[string]any{"text": "after"}),
		toolUse("h1", "mcp__web__echo", map[string]any{"text": "over http"}),
		toolUse("h2", "mcp__web__write_note", map[string]any{"text": "web note"}),
	)
	want := map[string]string{
		"g1": "gate a passed", "g2": "gate b passed",
		"w1": `noted "alone"; 0 other calls were running`,
		"e1": "echo: after", "h1": "echo: over http",
		"h2": `noted "web note"; 0 other calls were running`,
	}
	for id, w := range want {
		if got[id] != w || isErr[id] {
			t.Errorf("%s: %q (error %v), want %q\nstderr:\n%s", id, got[id], isErr[id], w, stderr)
		}
	}
	for file, w := range map[string]string{"notes.txt": "alone\n", "web-notes.txt": "web note\n"} {
		if b, _ := os.ReadFile(filepath.Join(work, file)); string(b) != w {
			t.Errorf("%s holds %q, want %q", file, b, w)
		}
	}
}

// A server that crashes gives an error result; the next call (in the same turn, and
// in a later one) reaches a restarted server.
func TestMCPCrashReconnects(t *testing.T) {
	work, state := t.TempDir(), t.TempDir()
	mcptest.Config(t, work, map[string]any{"test": mcptest.Stdio(t, filepath.Join(work, "notes.txt"))})
	got, isErr, _ := mcpRun(t, work, state, nil, nil,
		toolUse("c1", "mcp__test__crash", map[string]any{}),
		toolUse("e1", "mcp__test__echo", map[string]any{"text": "same turn"}))
	if !isErr["c1"] || !strings.Contains(got["c1"], "MCP server test is unavailable") ||
		!strings.Contains(got["c1"], "it will be reconnected on the next call") {
		t.Fatalf("crash: %q", got["c1"])
	}
	if got["e1"] != "echo: same turn" || isErr["e1"] {
		t.Fatalf("after the crash: %q", got["e1"])
	}
	got, isErr, _ = mcpRun(t, work, state, nil, nil, toolUse("e2", "mcp__test__echo", map[string]any{"text": "later turn"}))
	if got["e2"] != "echo: later turn" || isErr["e2"] {
		t.Fatalf("later turn: %q", got["e2"])
	}
}

// Claude Code settings apply to MCP tools: a PostToolUse hook matching mcp__test__.*
// replaces an MCP result with updatedMCPToolOutput (and the same output from a Bash
// hook changes nothing, since it is for MCP tools only); a deny rule for one tool
// denies it while the server's other tools are allowed.
func TestMCPHooksAndPermissions(t *testing.T) {
	work := t.TempDir()
	notes := filepath.Join(work, "notes.txt")
	mcptest.Config(t, work, map[string]any{"test": mcptest.Stdio(t, notes)})
	replace := `cat >/dev/null; printf '%s' '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":"replaced by the hook"}}'`
	group := func(matcher string) map[string]any {
		return map[string]any{"matcher": matcher, "hooks": []any{map[string]any{"type": "command", "command": replace}}}
	}
	settings := writeJSON(t, filepath.Join(t.TempDir(), "settings.json"), map[string]any{
		"hooks": map[string]any{"PostToolUse": []any{group("mcp__test__.*"), group("Bash")}},
		"permissions": map[string]any{
			"allow": []string{"mcp__test", "Bash(echo plain)"},
			"deny":  []string{"mcp__test__write_note"},
		},
	})
	got, isErr, stderr := mcpRun(t, work, t.TempDir(), nil, []string{"--settings", settings},
		toolUse("e1", "mcp__test__echo", map[string]any{"text": "original"}),
		toolUse("w1", "mcp__test__write_note", map[string]any{"text": "must not be written"}),
		toolUse("b1", "Bash", map[string]any{"command": "echo plain"}))
	if got["e1"] != "replaced by the hook" || isErr["e1"] {
		t.Errorf("e1: %q\nstderr:\n%s", got["e1"], stderr)
	}
	if !isErr["w1"] || !strings.Contains(got["w1"], "mcp__test__write_note") {
		t.Errorf("w1 not denied: %q", got["w1"])
	}
	if _, err := os.Stat(notes); err == nil {
		t.Error("the denied write_note ran")
	}
	if got["b1"] != "plain" || isErr["b1"] {
		t.Errorf("b1: %q", got["b1"])
	}
}

// A malformed .mcp.json is bad input: exit status 2 and one line naming the file.
func TestMCPBadConfigExits2(t *testing.T) {
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, ".mcp.json"), []byte(`{"mcpServers":{"x":{"type":"http"}}}`), 0o644)
	cmd := hermetic(t, starter(t, t.TempDir(), "run", "--trust", "--workdir", work,
		writeMessage(t, `{"role":"assistant","content":[`+toolUse("e1", "mcp__x__y", map[string]any{})+`]}`)))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errorsAs(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("exit: %v, want status 2\n%s", err, stderr.String())
	}
	msg := strings.TrimRight(stderr.String(), "\n")
	if strings.Contains(msg, "\n") || !strings.Contains(msg, ".mcp.json") || !strings.Contains(msg, `an http server needs "url"`) {
		t.Fatalf("stderr %q", stderr.String())
	}
}
