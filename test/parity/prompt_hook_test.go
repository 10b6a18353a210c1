package parity

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/settings"
	"github.com/toolpipe/toolpipe/tool"
	tpworker "github.com/toolpipe/toolpipe/worker"
	"github.com/toolpipe/toolpipe/workflows"
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
	b, _ := json.Marshal(map[string]any{
		"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{
			map[string]any{"type": "prompt", "prompt": promptHookText, "continueOnBlock": true}}}}},
		"permissions": map[string]any{"allow": []string{"Bash", "Read", "Glob", "Grep", "Edit", "Write"}, "defaultMode": "acceptEdits"}})
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
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
	bin := claudeCode(t)
	root, home := t.TempDir(), t.TempDir()
	promptHookSettings(t, filepath.Join(home, ".claude"))
	promptHookCase.setup(t, root)
	cm, url := newRecordingModel(t, [][]scriptBlock{promptHookCase.script(root)})
	cm.hookMarker, cm.hookAnswer = promptHookMarker, promptHookAnswer
	runClaudeHome(t, bin, root, url, home)
	id := promptHookCase.id(0)
	want, ok := cm.result(id)
	if !ok {
		t.Fatal("Claude Code sent no tool_result for the guarded call")
	}
	claudeHooks := cm.hookRequests()
	if len(claudeHooks) != 1 {
		t.Fatalf("Claude Code asked the hook's model %d times", len(claudeHooks))
	}

	tpRoot, state := t.TempDir(), t.TempDir()
	promptHookCase.setup(t, tpRoot)
	loaded, err := settings.Load(settings.LoadOptions{File: promptHookSettings(t, t.TempDir()), ProjectDir: tpRoot})
	if err != nil {
		t.Fatal(err)
	}
	pol, err := loaded.Policy(settings.PolicyOptions{WorkDir: tpRoot})
	if err != nil {
		t.Fatal(err)
	}
	tm, tpURL := newRecordingModel(t, nil)
	tm.hookMarker, tm.hookAnswer = promptHookMarker, promptHookAnswer
	acts, err := activities.New(activities.Config{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	queue := testenv.TaskQueue(t)
	cfg := activities.AgentConfig{StateDir: state, APIKey: "sk-ant-parity-fake", BaseURL: tpURL}
	testenv.StartWorker(t, queue, func(r sdkworker.Registry) { tpworker.RegisterWithAgent(r, acts, cfg) })
	var blocks []tool.Block
	for _, b := range promptHookCase.script(tpRoot) {
		blocks = append(blocks, tool.Block{ID: b.ID, Name: b.Name, Input: b.Input})
	}
	run, err := testenv.Client().ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: "parity-prompt-hook-" + queue, TaskQueue: queue},
		workflows.TurnWorkflowName, workflows.TurnInput{SessionID: "parity", Workdir: tpRoot, Blocks: blocks, CloseIntake: true,
			Settings: &workflows.TurnSettings{Hooks: loaded.Hooks, Permissions: pol, ProjectDir: tpRoot}})
	if err != nil {
		t.Fatal(err)
	}
	var res workflows.TurnResult
	if err := run.Get(testenv.Context(t), &res); err != nil {
		t.Fatal(err)
	}
	got := res.Results[0]
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
	w := result{Content: normalise(flatten(want.Content), root), IsError: want.IsError}
	g := result{Content: normalise(got.Content, tpRoot), IsError: got.IsError}
	if w != g {
		t.Errorf("denied call's tool_result:\n claude:   %q (is_error %v)\n toolpipe: %q (is_error %v)", w.Content, w.IsError, g.Content, g.IsError)
	}
}
