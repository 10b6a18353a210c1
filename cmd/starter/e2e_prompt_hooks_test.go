package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/wire"
)

// promptHookSettings is a settings file with one PreToolUse prompt hook on Bash.
func promptHookSettings(t *testing.T, prompt string) string {
	return writeJSON(t, filepath.Join(t.TempDir(), "settings.json"), map[string]any{"hooks": map[string]any{
		"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "prompt", "prompt": prompt}}}}}})
}

// `starter run` with a prompt hook asks the model the worker is configured with
// (here a fake on 127.0.0.1): its {"ok": false} denies the call, which never runs,
// and says that the session must end. Without ANTHROPIC_API_KEY the same settings
// are refused before anything runs (exit 2), since every prompt hook would fail.
func TestPromptHookEndToEnd(t *testing.T) {
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{{Type: "text", Text: `{"ok": false, "reason": "deleting is not allowed here"}`}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	work := t.TempDir()
	os.Mkdir(filepath.Join(work, "victim"), 0o755)
	settings := promptHookSettings(t, "Block deletions: $ARGUMENTS")
	block := toolUse("b1", "Bash", map[string]any{"command": "rm -rf victim"})
	msg := filepath.Join(t.TempDir(), "msg.json")
	os.WriteFile(msg, []byte(`{"role":"assistant","content":[`+block+`]}`), 0o644)

	cmd := hermetic(t, starter(t, t.TempDir(), "run", "--workdir", work, "--settings", settings, msg))
	cmd.Env = append(cmd.Env, "ANTHROPIC_API_KEY=k", "ANTHROPIC_BASE_URL="+fake.URL())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	r := decode(t, out).Content[0]
	if !r.IsError || !strings.Contains(r.Content, "[Block deletions: $ARGUMENTS]: deleting is not allowed here") {
		t.Fatalf("result %+v", r)
	}
	if _, err := os.Stat(filepath.Join(work, "victim")); err != nil {
		t.Fatal("the denied command ran")
	}
	if !strings.Contains(stderr.String(), "a hook stopped the session; it ends after this turn: deleting is not allowed here") {
		t.Fatalf("stderr %q", stderr.String())
	}
	if reqs := fake.Requests(); len(reqs) != 1 || !strings.Contains(reqs[0].Messages[0].Content[0].Text, `"command":"rm -rf victim"`) {
		t.Fatalf("requests %+v", reqs)
	}

	cmd = hermetic(t, starter(t, t.TempDir(), "run", "--workdir", work, "--settings", settings, msg))
	cmd.Env = append(cmd.Env, "ANTHROPIC_API_KEY=")
	stderr.Reset()
	cmd.Stderr = &stderr
	_, err = cmd.Output()
	var ee *exec.ExitError
	if !errorsAs(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "prompt hooks, which ask a model, but ANTHROPIC_API_KEY is not set") {
		t.Fatalf("without a key: %v, stderr %q", err, stderr.String())
	}
}
