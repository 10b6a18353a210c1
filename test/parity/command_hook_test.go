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

// commandHookScript decides by a marker in the call's input, the way a policy hook
// does: exit 2 with a reason on stderr, a JSON deny, a failing hook (exit 1, which
// blocks nothing), and PostToolUse feedback (exit 2, and additionalContext).
const commandHookScript = `import json, sys
d = json.load(sys.stdin)
ev, ti = d["hook_event_name"], json.dumps(d.get("tool_input", {}))
if ev == "PreToolUse":
    if "DENY-EXIT2" in ti:
        sys.stderr.write("blocked by policy")
        sys.exit(2)
    if "DENY-JSON" in ti:
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no echo today"}}))
    if "DENY-EMPTY" in ti:
        sys.exit(2)
    if "DENY-NOREASON" in ti:
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}))
    if "PRE-CTX" in ti:
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "pre context"}}))
    if "WARN-EXIT1" in ti:
        sys.stderr.write("hook hiccup")
        sys.exit(1)
if ev == "PostToolUse":
    if "POST-EXIT2" in ti:
        sys.stderr.write("post says no")
        sys.exit(2)
    if "POST-BLOCK-JSON" in ti:
        print(json.dumps({"decision": "block", "reason": "json says no"}))
    if "POST-CTX" in ti:
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "remember the context"}}))
`

// commandHookNotes names, for the calls whose hooks tell the model something, a text
// of what they tell it: Claude Code sends it in a system message after the results,
// toolpipe in the call's tool_result (a deliberate difference, README).
var commandHookNotes = map[int]string{3: "post says no", 4: "remember the context", 7: "pre context", 8: "json says no"}

var commandHookCase = parityCase{name: "ch", blocks: []caseBlock{
	blk("Bash", `{"command":"echo DENY-EXIT2","description":"a"}`),
	blk("Bash", `{"command":"echo DENY-JSON","description":"b"}`),
	blk("Bash", `{"command":"echo WARN-EXIT1","description":"c"}`),
	blk("Bash", `{"command":"echo POST-EXIT2","description":"d"}`),
	blk("Bash", `{"command":"echo POST-CTX","description":"e"}`),
	blk("Bash", `{"command":"echo DENY-EMPTY","description":"f"}`),
	blk("Bash", `{"command":"echo DENY-NOREASON","description":"g"}`),
	blk("Bash", `{"command":"echo PRE-CTX","description":"h"}`),
	blk("Bash", `{"command":"echo POST-BLOCK-JSON","description":"i"}`),
}}

// commandHookSettings writes the hook script and a settings file running it on
// every PreToolUse and PostToolUse, into dir.
func commandHookSettings(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "policy.py")
	if err := os.WriteFile(script, []byte(commandHookScript), 0o644); err != nil {
		t.Fatal(err)
	}
	hook := []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": "python3 \"" + script + "\""}}}}
	b, _ := json.Marshal(map[string]any{
		"hooks":       map[string]any{"PreToolUse": hook, "PostToolUse": hook},
		"permissions": map[string]any{"allow": []string{"Bash", "Read", "Glob", "Grep", "Edit", "Write"}, "defaultMode": "acceptEdits"}})
	p := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestParityCommandHooks runs command hooks that deny, fail and give feedback
// through Claude Code and toolpipe, and compares the tool_results the model gets.
func TestParityCommandHooks(t *testing.T) {
	bin := claudeCode(t)
	root, home := t.TempDir(), t.TempDir()
	commandHookSettings(t, filepath.Join(home, ".claude"))
	commandHookCase.setup(t, root)
	cm, url := newRecordingModel(t, [][]scriptBlock{commandHookCase.script(root)})
	runClaudeHome(t, bin, root, url, home)
	notes := cm.systemNotes()

	tpRoot := t.TempDir()
	commandHookCase.setup(t, tpRoot)
	tpHooks := t.TempDir()
	loaded, err := settings.Load(settings.LoadOptions{File: commandHookSettings(t, tpHooks), ProjectDir: tpRoot})
	if err != nil {
		t.Fatal(err)
	}
	pol, err := loaded.Policy(settings.PolicyOptions{WorkDir: tpRoot})
	if err != nil {
		t.Fatal(err)
	}
	queue := testenv.TaskQueue(t)
	acts, err := activities.New(activities.Config{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	testenv.StartWorker(t, queue, func(r sdkworker.Registry) { tpworker.Register(r, acts) })
	var blocks []tool.Block
	for _, b := range commandHookCase.script(tpRoot) {
		blocks = append(blocks, tool.Block{ID: b.ID, Name: b.Name, Input: b.Input})
	}
	run, err := testenv.Client().ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: "parity-command-hooks-" + queue, TaskQueue: queue},
		workflows.TurnWorkflowName, workflows.TurnInput{SessionID: "parity", Workdir: tpRoot, Blocks: blocks, CloseIntake: true,
			Settings: &workflows.TurnSettings{Hooks: loaded.Hooks, Permissions: pol, ProjectDir: tpRoot}})
	if err != nil {
		t.Fatal(err)
	}
	var res workflows.TurnResult
	if err := run.Get(testenv.Context(t), &res); err != nil {
		t.Fatal(err)
	}
	scripts := map[string]string{filepath.Join(home, ".claude", "policy.py"): "<HOOK>", filepath.Join(tpHooks, "policy.py"): "<HOOK>"}
	norm := func(s, root string) string {
		for p, with := range scripts {
			s = strings.ReplaceAll(s, p, with)
		}
		return normalise(s, root)
	}
	for i, got := range res.Results {
		want, ok := cm.result(commandHookCase.id(i))
		if !ok {
			t.Errorf("%s: Claude Code sent no tool_result", commandHookCase.id(i))
			continue
		}
		w := result{Content: norm(flatten(want.Content), root), IsError: want.IsError}
		if key, ok := commandHookNotes[i]; ok {
			var paras []string
			for _, p := range notes {
				if strings.Contains(p, key) {
					paras = append(paras, norm(p, root))
				}
			}
			if len(paras) == 0 {
				t.Errorf("%s: Claude Code told the model nothing with %q; its notes: %q", commandHookCase.id(i), key, notes)
			}
			w.Content += "\n\n<system-reminder>\n" + strings.Join(paras, "\n\n") + "\n</system-reminder>"
		}
		g := result{Content: norm(got.Content, tpRoot), IsError: got.IsError}
		if w != g {
			t.Errorf("%s:\n claude:   %q (is_error %v)\n toolpipe: %q (is_error %v)", commandHookCase.id(i), w.Content, w.IsError, g.Content, g.IsError)
		}
	}
}
