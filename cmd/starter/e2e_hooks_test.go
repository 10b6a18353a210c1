package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// End-to-end tests of hooks and permissions: real hook scripts (bash and python)
// run by `starter run --settings`, as a user would.

// hermetic makes a starter command ignore the user's own Claude Code settings.
func hermetic(t *testing.T, cmd *exec.Cmd) *exec.Cmd {
	home := t.TempDir()
	cmd.Env = append(cmd.Env, "HOME="+home, "CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"))
	return cmd
}

func hookScript(t *testing.T, name string) string {
	return filepath.Join(repoRoot(t), "hooks", "testdata", "scripts", name)
}

func writeJSON(t *testing.T, path string, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func hookSettings(event, matcher, command string, timeout float64) map[string]any {
	h := map[string]any{"type": "command", "command": command}
	if timeout > 0 {
		h["timeout"] = timeout
	}
	return map[string]any{"hooks": map[string]any{event: []any{map[string]any{"matcher": matcher, "hooks": []any{h}}}}}
}

// runTurn runs one assistant message of the given tool_use blocks with extra flags
// and returns the user message and stderr.
func runTurn(t *testing.T, work string, flags []string, blocks ...string) (userMsg, string) {
	t.Helper()
	msg := filepath.Join(t.TempDir(), "msg.json")
	os.WriteFile(msg, []byte(`{"role":"assistant","content":[`+strings.Join(blocks, ",")+`]}`), 0o644)
	cmd := hermetic(t, starter(t, t.TempDir(), append(append([]string{"run", "--workdir", work}, flags...), msg)...))
	out, stderr := output(t, "run", cmd)
	return decode(t, out), stderr
}

func TestHookScriptsEndToEnd(t *testing.T) {
	type check func(t *testing.T, work string, m userMsg, stderr string)
	content := func(m userMsg) string { return m.Content[0].Content }
	cases := []struct {
		script, event string
		timeout       float64
		command       string
		check         check
	}{
		{"deny_rm_rf", "PreToolUse", 0, "rm -rf victim", func(t *testing.T, work string, m userMsg, _ string) {
			if !m.Content[0].IsError || !strings.HasPrefix(content(m), "PreToolUse:Bash hook error: ") || !strings.Contains(content(m), "rm -rf is not allowed in this project") {
				t.Fatalf("result %+v", m.Content[0])
			}
			if _, err := os.Stat(filepath.Join(work, "victim")); err != nil {
				t.Fatal("rm -rf ran")
			}
		}},
		{"rewrite", "PreToolUse", 0, "make deploy", func(t *testing.T, _ string, m userMsg, _ string) {
			if m.Content[0].IsError || !strings.HasPrefix(content(m), "dry-run: ") {
				t.Fatalf("result %+v", m.Content[0])
			}
		}},
		{"add_context", "PostToolUse", 0, "echo hi", func(t *testing.T, _ string, m userMsg, _ string) {
			if !strings.HasPrefix(content(m), "hi\n\n<system-reminder>\nPostToolUse:Bash hook additional context: Project convention: run make lint") {
				t.Fatalf("result %q", content(m))
			}
		}},
		{"exit2", "PreToolUse", 0, "touch made", func(t *testing.T, work string, m userMsg, _ string) {
			if !m.Content[0].IsError || !strings.Contains(content(m), "blocked by policy: this tool is frozen today") {
				t.Fatalf("result %+v", m.Content[0])
			}
			if _, err := os.Stat(filepath.Join(work, "made")); err == nil {
				t.Fatal("the blocked command ran")
			}
		}},
		{"sleep", "PreToolUse", 1, "echo went ahead", func(t *testing.T, _ string, m userMsg, stderr string) {
			if m.Content[0].IsError || content(m) != "went ahead" || !strings.Contains(stderr, "timed out after 1s") {
				t.Fatalf("result %+v\nstderr %s", m.Content[0], stderr)
			}
		}},
		{"garbage", "PreToolUse", 0, "echo ok", func(t *testing.T, _ string, m userMsg, stderr string) {
			if m.Content[0].IsError || content(m) != "ok" || !strings.Contains(stderr, "printed invalid JSON") {
				t.Fatalf("result %+v\nstderr %s", m.Content[0], stderr)
			}
		}},
		{"plain_text", "PostToolUse", 0, "echo ok", func(t *testing.T, _ string, m userMsg, _ string) {
			if m.Content[0].IsError || content(m) != "ok" {
				t.Fatalf("plain text reached the model: %+v", m.Content[0])
			}
		}},
		{"big_output", "PreToolUse", 0, "echo ok", func(t *testing.T, _ string, m userMsg, _ string) {
			if m.Content[0].IsError || content(m) != "ok" {
				t.Fatalf("result %+v", m.Content[0])
			}
		}},
		{"stop", "PostToolUse", 0, "echo ok", func(t *testing.T, _ string, m userMsg, stderr string) {
			if content(m) != "ok" || !strings.Contains(stderr, "a hook stopped the session; it ends after this turn: daily budget reached") {
				t.Fatalf("result %+v\nstderr %s", m.Content[0], stderr)
			}
		}},
	}
	for _, c := range cases {
		for _, lang := range []string{"sh", "py"} {
			t.Run(c.script+"."+lang, func(t *testing.T) {
				t.Parallel()
				work := t.TempDir()
				os.Mkdir(filepath.Join(work, "victim"), 0o755)
				settings := writeJSON(t, filepath.Join(t.TempDir(), "settings.json"),
					hookSettings(c.event, "Bash", hookScript(t, c.script+"."+lang), c.timeout))
				m, stderr := runTurn(t, work, []string{"--settings", settings}, toolUse("t1", "Bash", map[string]any{"command": c.command}))
				if len(m.Content) != 1 {
					t.Fatalf("results %+v", m.Content)
				}
				c.check(t, work, m, stderr)
			})
		}
	}
}

// Settings found in the working directory's .claude/ (no --settings), with the mode
// from the command line: plan mode refuses the Write, the deny rule the Read, and a
// read-only command runs.
func TestProjectSettingsAndPlanMode(t *testing.T) {
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, "secret.env"), []byte("TOKEN=x\n"), 0o600)
	writeJSON(t, filepath.Join(work, ".claude", "settings.json"), map[string]any{
		"permissions": map[string]any{"deny": []string{"Read(./*.env)"}, "defaultMode": "acceptEdits"}})
	m, _ := runTurn(t, work, []string{"--trust", "--permission-mode", "plan"},
		toolUse("r1", "Read", map[string]any{"file_path": filepath.Join(work, "secret.env")}),
		toolUse("b1", "Bash", map[string]any{"command": "ls"}),
		toolUse("w1", "Write", map[string]any{"file_path": filepath.Join(work, "plan.md"), "content": "x"}))
	if r := m.Content[0]; !r.IsError || r.Content != "<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>" {
		t.Fatalf("r1: %+v", r)
	}
	if r := m.Content[1]; r.IsError || !strings.Contains(r.Content, "secret.env") {
		t.Fatalf("b1: %+v", r)
	}
	if r := m.Content[2]; !r.IsError || !strings.Contains(r.Content, "plan mode is read-only") {
		t.Fatalf("w1: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(work, "plan.md")); err == nil {
		t.Fatal("plan mode wrote a file")
	}
}

// A malformed settings file is bad input: exit 2, one line naming the file and the
// position.
func TestRunBadSettingsExits2(t *testing.T) {
	settings := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(settings, []byte("{\n  \"hooks\": {\"PreToolUse\": [\n    {\"matcher\": \"Bash\" \"hooks\": []}]}}\n"), 0o644)
	cmd := hermetic(t, starter(t, t.TempDir(), "run", "--settings", settings, "-"))
	cmd.Stdin = strings.NewReader(`{"role":"assistant","content":[` + toolUse("t1", "Bash", map[string]any{"command": "true"}) + `]}`)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errorsAs(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("exit %v, want 2; stderr %s", err, stderr.String())
	}
	if want := fmt.Sprintf("%s:3:24: invalid JSON", settings); !strings.Contains(stderr.String(), want) || strings.Count(strings.TrimSpace(stderr.String()), "\n") != 0 {
		t.Fatalf("stderr %q does not name %s in one line", stderr.String(), want)
	}
}
