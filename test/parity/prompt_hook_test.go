package parity

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/activities"
)

// The prompt hook of the comparison: a PreToolUse guard on Bash whose model answers
// ok: false. continueOnBlock keeps Claude Code going, so that its next request
// carries the denied call's tool_result.
const (
	promptHookMarker = "PARITY-GUARD"
	promptHookText   = promptHookMarker + ": may this command run? $ARGUMENTS"
	promptHookAnswer = `{"ok": false, "reason": "writes are frozen today"}`
)

var promptHookCase = parityCase{name: "p_guard", blocks: []caseBlock{blk("Bash", `{"command":"echo guarded > $D/out.txt","description":"write"}`)}}

func promptHookSettings(t *testing.T, dir string) string {
	t.Helper()
	return writeSettings(t, dir, map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{
		map[string]any{"type": "prompt", "prompt": promptHookText, "continueOnBlock": true}}}}})
}

// hookQuestion is the text of a prompt hook's request.
func hookQuestion(t *testing.T, body []byte) string {
	var req apiRequest
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
		t.Fatalf("hook request %s: %v", body, err)
	}
	return flatten(req.Messages[len(req.Messages)-1].Content)
}

// TestParityPromptHook runs a PreToolUse prompt hook through Claude Code and
// toolpipe, against fakes that answer its question with ok: false, and compares the
// question (the prompt with $ARGUMENTS replaced by the hook input) and the denied
// call's tool_result.
func TestParityPromptHook(t *testing.T) {
	cm, root, _ := runClaudeCase(t, promptHookCase, promptHookSettings, func(m *recordingModel) {
		m.hookMarker, m.hookAnswer = promptHookMarker, promptHookAnswer
	})
	claudeHooks := cm.hookRequests()
	if len(claudeHooks) != 1 {
		t.Fatalf("Claude Code asked the hook's model %d times", len(claudeHooks))
	}

	tpRoot := t.TempDir()
	tm, tpURL := newRecordingModel(t, nil)
	tm.hookMarker, tm.hookAnswer = promptHookMarker, promptHookAnswer
	res := runWithSettings(t, promptHookCase, tpRoot, promptHookSettings(t, t.TempDir()),
		&activities.AgentConfig{ModelEndpoint: activities.ModelEndpoint{APIKey: "sk-ant-parity-fake", BaseURL: tpURL}})
	for dir, side := range map[string]string{root: "claude", tpRoot: "toolpipe"} {
		if _, err := os.Stat(filepath.Join(dir, promptHookCase.name, "out.txt")); err == nil {
			t.Errorf("%s ran the denied command", side)
		}
	}
	tpHooks := tm.hookRequests()
	if len(tpHooks) != 1 {
		t.Fatalf("toolpipe asked the hook's model %d times", len(tpHooks))
	}
	// The question: the prompt with the input JSON in place of $ARGUMENTS; the JSON
	// itself is compared by TestParityHookInputs.
	cq, tq := hookQuestion(t, claudeHooks[0]), hookQuestion(t, tpHooks[0])
	cPrefix, _, _ := strings.Cut(cq, "{")
	tPrefix, _, _ := strings.Cut(tq, "{")
	if cPrefix != tPrefix || !strings.HasSuffix(cq, "}") || !strings.HasSuffix(tq, "}") {
		t.Errorf("hook question:\n claude:   %q\n toolpipe: %q", clip(cq), clip(tq))
	}
	compareTurn(t, promptHookCase, cm, root, tpRoot, res, normalise, nil)
}
