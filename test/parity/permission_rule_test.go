package parity

import (
	"encoding/json"
	"os"
	"path/filepath"
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

// permissionRuleCase runs calls that deny rules refuse: a Bash command by prefix, a
// Read of a file by path, a whole tool; and a Bash call beside them that runs.
var permissionRuleCase = parityCase{name: "pr", files: map[string]string{"secret.txt": "s\n"}, blocks: []caseBlock{
	blk("Bash", `{"command":"echo DENIED-RULE now","description":"a"}`),
	blk("Read", `{"file_path":"$D/secret.txt"}`),
	blk("Glob", `{"pattern":"*"}`),
	blk("Bash", `{"command":"echo ran","description":"b"}`),
}}

// permissionRuleSettings writes a settings file whose deny rules refuse them.
func permissionRuleSettings(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"permissions": map[string]any{
		"allow":       []string{"Bash", "Read", "Glob", "Grep", "Edit", "Write"},
		"deny":        []string{"Bash(echo DENIED-RULE:*)", "Read(./pr/secret.txt)", "Glob"},
		"defaultMode": "acceptEdits"}})
	p := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestParityPermissionRules compares what the model is told of calls that deny
// rules refuse, with Claude Code's answers.
func TestParityPermissionRules(t *testing.T) {
	bin := claudeCode(t)
	root, home := t.TempDir(), t.TempDir()
	permissionRuleSettings(t, filepath.Join(home, ".claude"))
	permissionRuleCase.setup(t, root)
	cm, url := newRecordingModel(t, [][]scriptBlock{permissionRuleCase.script(root)})
	runClaudeHome(t, bin, root, url, home)

	tpRoot := t.TempDir()
	permissionRuleCase.setup(t, tpRoot)
	loaded, err := settings.Load(settings.LoadOptions{File: permissionRuleSettings(t, t.TempDir()), ProjectDir: tpRoot})
	if err != nil {
		t.Fatal(err)
	}
	pol, err := loaded.Policy(settings.PolicyOptions{WorkDir: tpRoot})
	if err != nil {
		t.Fatal(err)
	}
	acts, err := activities.New(activities.Config{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	queue := testenv.TaskQueue(t)
	testenv.StartWorker(t, queue, func(r sdkworker.Registry) { tpworker.Register(r, acts) })
	var blocks []tool.Block
	for _, b := range permissionRuleCase.script(tpRoot) {
		blocks = append(blocks, tool.Block{ID: b.ID, Name: b.Name, Input: b.Input})
	}
	run, err := testenv.Client().ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: "parity-permission-rules-" + queue, TaskQueue: queue},
		workflows.TurnWorkflowName, workflows.TurnInput{SessionID: "parity", Workdir: tpRoot, Blocks: blocks, CloseIntake: true,
			Settings: &workflows.TurnSettings{Hooks: loaded.Hooks, Permissions: pol, ProjectDir: tpRoot}})
	if err != nil {
		t.Fatal(err)
	}
	var res workflows.TurnResult
	if err := run.Get(testenv.Context(t), &res); err != nil {
		t.Fatal(err)
	}
	for i, got := range res.Results {
		want, ok := cm.result(permissionRuleCase.id(i))
		if !ok {
			t.Errorf("%s: Claude Code sent no tool_result", permissionRuleCase.id(i))
			continue
		}
		w := result{Content: normalise(flatten(want.Content), root), IsError: want.IsError}
		g := result{Content: normalise(got.Content, tpRoot), IsError: got.IsError}
		if w != g {
			t.Errorf("%s:\n claude:   %q (is_error %v)\n toolpipe: %q (is_error %v)", permissionRuleCase.id(i), w.Content, w.IsError, g.Content, g.IsError)
		}
	}
}
