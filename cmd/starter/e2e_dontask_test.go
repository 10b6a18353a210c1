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

// dontAsk given as the mode itself, without a settings file, from each of the three
// places a key comes from (issue 32 item 4: all three were refused, exit 2, though
// a settings file's defaultMode worked): the call that would ask is denied at once.
func TestDontAskModeFromFlagEnvironmentAndFile(t *testing.T) {
	yaml := filepath.Join(t.TempDir(), "toolpipe.yaml")
	if err := os.WriteFile(yaml, []byte("permission-mode: dontAsk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		flags []string
		env   []string
	}{
		{"flag", []string{"--permission-mode", "dontAsk"}, nil},
		{"environment", nil, []string{"TOOLPIPE_PERMISSION_MODE=dontAsk"}},
		{"file", []string{"--config", yaml}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			work := t.TempDir()
			msg := filepath.Join(t.TempDir(), "msg.json")
			os.WriteFile(msg, []byte(`{"role":"assistant","content":[`+toolUse("t1", "Bash", map[string]any{"command": "touch made"})+`]}`), 0o644)
			cmd := hermetic(t, starter(t, t.TempDir(), append(append([]string{"run", "--workdir", work}, c.flags...), msg)...))
			cmd.Env = append(cmd.Env, c.env...)
			out, _ := output(t, "run", cmd)
			m := decode(t, out)
			if r := m.Content[0]; !r.IsError || !strings.Contains(r.Content, "dontAsk") {
				t.Fatalf("%+v", r)
			}
			if _, err := os.Stat(filepath.Join(work, "made")); err == nil {
				t.Fatal("the call ran in dontAsk mode")
			}
		})
	}
}
