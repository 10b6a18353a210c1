package parity

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/settings"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// runWithSettings runs c's blocks in tpRoot as one closed Turn under the settings
// file at file, loaded as the starter loads it. agent, when set, is the model the
// worker's agent activities (prompt hooks) call; otherwise the worker has the tool
// activities only. The case's files are set up under tpRoot first.
func runWithSettings(t *testing.T, c parityCase, tpRoot, file string, agent *activities.AgentConfig) workflows.TurnResult {
	t.Helper()
	c.setup(t, tpRoot)
	loaded, err := settings.Load(settings.LoadOptions{File: file, ProjectDir: tpRoot})
	if err != nil {
		t.Fatal(err)
	}
	pol, err := loaded.Policy(settings.PolicyOptions{WorkDir: tpRoot})
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	acts, err := activities.New(activities.Config{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	queue := testenv.TaskQueue(t)
	testenv.StartWorker(t, queue, func(r sdkworker.Registry) {
		if agent == nil {
			plugin.Register(r, acts)
			return
		}
		cfg := *agent
		cfg.StateDir = state
		plugin.RegisterWithAgent(r, acts, cfg)
	})
	var blocks []tool.Block
	for _, b := range c.script(tpRoot) {
		blocks = append(blocks, tool.Block{ID: b.ID, Name: b.Name, Input: b.Input})
	}
	run, err := testenv.Client().ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: "parity-" + c.name + "-" + queue, TaskQueue: queue},
		contract.TurnWorkflowName, workflows.TurnInput{SessionID: "parity", Workdir: tpRoot, Blocks: blocks, CloseIntake: true,
			Settings: &workflows.TurnSettings{Hooks: loaded.Hooks, Permissions: pol, ProjectDir: tpRoot}})
	if err != nil {
		t.Fatal(err)
	}
	var res workflows.TurnResult
	if err := run.Get(testenv.Context(t), &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// compareTurn fails for every call of c whose toolpipe result (run in tpRoot)
// differs from Claude Code's (run in root, as cm recorded it), both normalised by
// norm; adjust, when set, turns Claude Code's result of call i into what toolpipe
// answers by a deliberate difference.
func compareTurn(t *testing.T, c parityCase, cm *recordingModel, root, tpRoot string, res workflows.TurnResult,
	norm func(s, root string) string, adjust func(i int, w result) result) {
	t.Helper()
	for i, got := range res.Results {
		want, ok := cm.result(c.id(i))
		if !ok {
			t.Errorf("%s: Claude Code sent no tool_result", c.id(i))
			continue
		}
		w := result{Content: norm(flatten(want.Content), root), IsError: want.IsError}
		if adjust != nil {
			w = adjust(i, w)
		}
		g := result{Content: norm(got.Content, tpRoot), IsError: got.IsError}
		if w != g {
			t.Errorf("%s:\n claude:   %q (is_error %v)\n toolpipe: %q (is_error %v)", c.id(i), w.Content, w.IsError, g.Content, g.IsError)
		}
	}
}

// writeSettings writes a settings.json into dir with hooks (nil for none) and the
// permissions Claude Code is run with (every tool allowed, acceptEdits) plus the
// given deny rules, and returns its path.
func writeSettings(t *testing.T, dir string, hooks map[string]any, deny ...string) string {
	t.Helper()
	perms := map[string]any{"allow": []string{"Bash", "Read", "Glob", "Grep", "Edit", "Write"}, "defaultMode": "acceptEdits"}
	if len(deny) > 0 {
		perms["deny"] = deny
	}
	s := map[string]any{"permissions": perms}
	if hooks != nil {
		s["hooks"] = hooks
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// runClaudeCase runs c's blocks through Claude Code in a fresh directory, with the
// settings file that settings writes into its ~/.claude; prepare, when set, sets up
// the recording model first. It returns the model, the working directory and HOME.
func runClaudeCase(t *testing.T, c parityCase, settings func(t *testing.T, dir string) string,
	prepare func(*recordingModel)) (cm *recordingModel, root, home string) {
	t.Helper()
	bin := claudeCode(t)
	root, home = t.TempDir(), t.TempDir()
	settings(t, filepath.Join(home, ".claude"))
	c.setup(t, root)
	cm, url := newRecordingModel(t, [][]scriptBlock{c.script(root)})
	if prepare != nil {
		prepare(cm)
	}
	runClaudeHome(t, bin, root, url, home)
	return cm, root, home
}
