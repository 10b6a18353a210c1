package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// defaultMode "dontAsk" through `starter run`: a call that an allow rule or a
// read-only judgement lets through runs; a call that would ask (no rule, an ask
// rule, a PreToolUse hook's ask) is denied at once instead of waiting.
func TestDontAskModeEndToEnd(t *testing.T) {
	work := t.TempDir()
	settings := writeJSON(t, filepath.Join(t.TempDir(), "settings.json"), map[string]any{
		"permissions": map[string]any{
			"defaultMode": "dontAsk",
			"allow":       []string{"Bash(echo:*)", "Bash(touch hooked)"},
			"ask":         []string{"Bash(touch asked)"},
		},
		"hooks": map[string]any{"PreToolUse": []any{map[string]any{
			"matcher": "Bash",
			"hooks":   []any{map[string]any{"type": "command", "command": "if grep -q hooked; then " + hookScript(t, "ask.sh") + "; fi"}},
		}}},
	})
	// The allowed and read-only calls first: a denied Bash is an error result, which
	// cancels the Bash calls after it (the cascade), so each denial gets its own turn.
	m, _ := runTurn(t, work, []string{"--settings", settings},
		toolUse("e1", "Bash", map[string]any{"command": "echo allowed"}),
		toolUse("l1", "Bash", map[string]any{"command": "ls"}))
	if len(m.Content) != 2 {
		t.Fatalf("results: %+v", m.Content)
	}
	if r := m.Content[0]; r.IsError || r.Content != "allowed" {
		t.Fatalf("e1: %+v", r)
	}
	if r := m.Content[1]; r.IsError {
		t.Fatalf("l1 (read-only): %+v", r)
	}
	for _, f := range []string{"unruled", "asked", "hooked"} {
		t.Run(f, func(t *testing.T) {
			t.Parallel()
			m, _ := runTurn(t, work, []string{"--settings", settings}, toolUse("t1", "Bash", map[string]any{"command": "touch " + f}))
			if r := m.Content[0]; !r.IsError || !strings.Contains(r.Content, "dontAsk") {
				t.Fatalf("%+v", r)
			}
			if _, err := os.Stat(filepath.Join(work, f)); err == nil {
				t.Fatal("the call ran in dontAsk mode")
			}
		})
	}
}
