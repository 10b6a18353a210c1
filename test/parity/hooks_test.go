package parity

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/internal/testfs"
	"github.com/toolpipe/toolpipe/settings"
	tpworker "github.com/toolpipe/toolpipe/worker"
	"github.com/toolpipe/toolpipe/workflows"
)

// The hook inputs compared: the same logging hook (it appends its stdin to a file)
// on every event both run, configured by the same settings file for Claude Code and
// for a toolpipe Session, which runs the same scripted assistant messages against
// the same fake model. Each event's input is compared key by key after normalising
// what differs by run (session and prompt ids, transcript paths, durations, the
// working directory); deliberate differences are listed with their reasons.

// hookLog is the logging hook: every input, one JSON object per line.
const hookLog = `cat >> "$CLAUDE_PROJECT_DIR/hook-inputs.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/hook-inputs.jsonl"`

// hookEvents are the events both run and the suite can bring about.
var hookEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop", "SessionEnd"}

// hookPrompt is the user prompt of both runs.
const hookPrompt = "Run the tools."

// hookCases are the assistant messages of the hook suite, in order: every tool,
// a success and a failure.
var hookCases = []parityCase{
	{name: "h_read_bash", files: map[string]string{"a.txt": "alpha\n", "e.txt": "one\ntwo\nthree\n"},
		blocks: []caseBlock{
			blk("Read", `{"file_path":"$D/a.txt"}`),
			blk("Read", `{"file_path":"$D/e.txt"}`),
			blk("Bash", `{"command":"echo hi; echo err >&2","description":"say hi"}`),
		}},
	{name: "h_bash_fail", blocks: []caseBlock{blk("Bash", `{"command":"echo out; exit 3","description":"fail"}`)}},
	{name: "h_bash_cd", blocks: []caseBlock{blk("Bash", `{"command":"cd $W && echo cd-ok","description":"cd first"}`)}},
	{name: "h_write", blocks: []caseBlock{blk("Write", `{"file_path":"$D/new.txt","content":"x\n"}`)}},
	{name: "h_edit", files: map[string]string{"e.txt": "one\ntwo\nthree\n"},
		blocks: []caseBlock{
			blk("Read", `{"file_path":"$D/e.txt"}`),
			blk("Edit", `{"file_path":"$D/e.txt","old_string":"two","new_string":"TWO"}`),
		}},
	{name: "h_edit_missing", blocks: []caseBlock{blk("Edit", `{"file_path":"$D/nope.txt","old_string":"a","new_string":"b"}`)}},
	{name: "h_search", files: map[string]string{"g.txt": "alpha beta\n"},
		blocks: []caseBlock{
			blk("Glob", `{"pattern":"*.txt","path":"$D"}`),
			blk("Grep", `{"pattern":"alpha","path":"$D"}`),
			blk("Grep", `{"pattern":"alpha","path":"$D","output_mode":"content"}`),
		}},
}

// hookDifference is a deliberate difference in one field of the hook input.
type hookDifference struct {
	// events are the events it concerns.
	events []string
	// field is the top-level key; toolpipe's value is checked by want (nil: the
	// key is absent).
	field string
	want  func(v any) bool
	why   string
}

// Reasons of the deliberate differences (README, "Compatibility with Claude Code").
const (
	diffEffort    = "Claude Code reports its model's effort level; toolpipe sets none, so it has none to report"
	diffCrons     = "toolpipe has no scheduled prompts (Claude Code's session crons)"
	diffEditCheck = "Claude Code checks that an Edit's file exists before its hooks run; toolpipe's workflow does no I/O, so the tool activity checks it, after PreToolUse, and PostToolUseFailure reports it"
)

// hookDifferences are the deliberate differences in fields.
var hookDifferences = []hookDifference{
	{events: []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop"}, field: "effort", why: diffEffort},
	{events: []string{"Stop"}, field: "session_crons", why: diffCrons},
}

// hookOnlyInToolpipe are hook runs that Claude Code does not make, with the reason.
var hookOnlyInToolpipe = map[string]string{
	"PreToolUse/toolu_h_edit_missing_a":         diffEditCheck,
	"PostToolUseFailure/toolu_h_edit_missing_a": diffEditCheck,
}

// hookSettings is the settings file of both runs: the logging hook on every event,
// and the permissions Claude Code is run with.
func hookSettings(t *testing.T, dir string) string {
	t.Helper()
	hs := map[string]any{}
	for _, e := range hookEvents {
		g := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": hookLog}}}
		if strings.Contains(e, "Tool") {
			g["matcher"] = "*"
		}
		hs[e] = []any{g}
	}
	return writeSettings(t, dir, hs)
}

func hookScript(t *testing.T, root string) [][]scriptBlock {
	var script [][]scriptBlock
	for _, c := range hookCases {
		c.setup(t, root)
		script = append(script, c.script(root))
	}
	return script
}

// claudeHookInputs runs the hook suite through Claude Code and returns the inputs
// its hooks were given.
func claudeHookInputs(t *testing.T) ([]map[string]any, string) {
	bin := claudeCode(t)
	root, home := t.TempDir(), t.TempDir()
	hookSettings(t, filepath.Join(home, ".claude"))
	_, url := newRecordingModel(t, hookScript(t, root))
	runClaudeHome(t, bin, root, url, home)
	return readHookLog(t, root), root
}

// toolpipeHookInputs runs the hook suite as a toolpipe Session with the same
// settings file, loaded as `starter agent` loads it.
func toolpipeHookInputs(t *testing.T) ([]map[string]any, string) {
	root := t.TempDir()
	runToolpipeSession(t, root, hookSettings(t, t.TempDir()), hookScript(t, root))
	return readHookLog(t, root), root
}

// runToolpipeSession runs the script as a toolpipe Session in root (prepared by the
// caller) with the settings file at file, loaded as `starter agent` loads it.
func runToolpipeSession(t *testing.T, root, file string, script [][]scriptBlock) {
	t.Helper()
	state := t.TempDir()
	loaded, err := settings.Load(settings.LoadOptions{File: file, ProjectDir: root})
	if err != nil {
		t.Fatal(err)
	}
	pol, err := loaded.Policy(settings.PolicyOptions{WorkDir: root})
	if err != nil {
		t.Fatal(err)
	}
	const session = "0b6f5f4e-1c1a-4d47-9a53-3e1f4f2d7c11" // a UUID, as Claude Code's ids are
	settings := &workflows.TurnSettings{Hooks: loaded.Hooks, Permissions: pol, ProjectDir: root,
		TranscriptPath: hooks.TranscriptPath(state, session)}
	_, url := newRecordingModel(t, script)
	acts, err := activities.New(activities.Config{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	queue := testenv.TaskQueue(t)
	cfg := activities.AgentConfig{StateDir: state, APIKey: "sk-ant-parity-fake", BaseURL: url}
	testenv.StartWorker(t, queue, func(r sdkworker.Registry) { tpworker.RegisterWithAgent(r, acts, cfg) })
	run, err := testenv.Client().ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{
		ID: "parity-hooks-" + queue, TaskQueue: queue,
	}, workflows.SessionWorkflowName, workflows.SessionInput{SessionID: session, Prompt: hookPrompt, Workdir: root,
		Settings: settings, Model: workflows.ModelOptions{Model: "claude-sonnet-4-5"}})
	if err != nil {
		t.Fatal(err)
	}
	var res workflows.SessionResult
	if err := run.Get(testenv.Context(t), &res); err != nil {
		t.Fatalf("session: %v", err)
	}
}

// readHookLog reads the logged inputs. Hooks of parallel calls append at the same
// time, so an input's newline may follow another input: the log is read as a stream
// of JSON values, not as lines.
func readHookLog(t *testing.T, root string) []map[string]any {
	t.Helper()
	log := filepath.Join(root, "hook-inputs.jsonl")
	if _, err := os.Stat(log); err != nil {
		t.Fatalf("no hook ran: %v", err)
	}
	return testfs.ReadJSONValues(t, log)
}

// byEvent keys the inputs by event and tool_use id (events without a tool by their
// order: Stop#1).
func byEvent(ins []map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	n := map[string]int{}
	for _, in := range ins {
		e, _ := in["hook_event_name"].(string)
		k := e
		if id, ok := in["tool_use_id"].(string); ok {
			k += "/" + id
		} else {
			n[e]++
			k += fmt.Sprintf("#%d", n[e])
		}
		out[k] = in
	}
	return out
}

// normaliseInput replaces what differs by run and not by behaviour: ids by their
// kind, the transcript path and durations by placeholders, the working directory by
// <W> wherever it appears.
func normaliseInput(in map[string]any, root string) map[string]any {
	out := map[string]any{}
	for k, v := range in {
		switch k {
		case "session_id", "prompt_id":
			if s, ok := v.(string); ok && len(s) == 36 {
				v = "<uuid>"
			}
		case "transcript_path":
			if s, ok := v.(string); ok && strings.HasSuffix(s, ".jsonl") {
				v = "<transcript.jsonl>"
			}
		case "duration_ms":
			if _, ok := v.(float64); ok {
				v = "<ms>"
			}
		}
		out[k] = normaliseValue(v, root)
	}
	return out
}

func normaliseValue(v any, root string) any {
	switch x := v.(type) {
	case string:
		return strings.ReplaceAll(x, root, "<W>")
	case map[string]any:
		m := map[string]any{}
		for k, e := range x {
			if k == "durationMs" {
				if _, ok := e.(float64); ok {
					e = "<ms>"
				}
			}
			m[k] = normaliseValue(e, root)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = normaliseValue(e, root)
		}
		return a
	}
	return v
}

// TestParityHookInputs compares, per event and tool call, the input the logging
// hook received from Claude Code and from toolpipe.
func TestParityHookInputs(t *testing.T) {
	claudeIns, claudeRoot := claudeHookInputs(t)
	tpIns, tpRoot := toolpipeHookInputs(t)
	// Normalising hides the ids' values: within a run, every hook of the one prompt
	// must get the same session_id and prompt_id, as Claude Code's do.
	for side, ins := range map[string][]map[string]any{"claude": claudeIns, "toolpipe": tpIns} {
		for _, f := range []string{"session_id", "prompt_id"} {
			seen := map[any]bool{}
			for _, in := range ins {
				if v, ok := in[f]; ok {
					seen[v] = true
				}
			}
			if len(seen) != 1 {
				t.Errorf("%s: %d different %s values in one prompt: %v", side, len(seen), f, seen)
			}
		}
	}
	want, got := byEvent(claudeIns), byEvent(tpIns)
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range want {
			if !yield(k) {
				return
			}
		}
	})
	for k := range got {
		if _, ok := want[k]; ok {
			continue
		}
		if why, ok := hookOnlyInToolpipe[k]; ok {
			t.Logf("%s runs in toolpipe only, deliberately (%s)", k, why)
			continue
		}
		t.Errorf("%s: toolpipe ran a hook Claude Code did not: %v", k, got[k])
	}
	for k, why := range hookOnlyInToolpipe {
		if _, ok := got[k]; !ok {
			t.Errorf("%s: listed as run by toolpipe only (%s), but toolpipe did not run it", k, why)
		}
	}
	compared := 0
	for _, k := range keys {
		t.Run(k, func(t *testing.T) {
			g, ok := got[k]
			if !ok {
				t.Fatalf("toolpipe ran no hook for it; Claude Code's input: %v", want[k])
			}
			w := normaliseInput(want[k], claudeRoot)
			gn := normaliseInput(g, tpRoot)
			event, _ := w["hook_event_name"].(string)
			for _, d := range hookDifferences {
				if !slices.Contains(d.events, event) {
					continue
				}
				gv, has := gn[d.field]
				switch {
				case d.want == nil && has:
					t.Errorf("%s: toolpipe sends %s (%v); the listed difference says it does not (%s)", k, d.field, gv, d.why)
				case d.want != nil && !d.want(gv):
					t.Errorf("%s: toolpipe's %s is %v, not what the listed difference says (%s)", k, d.field, gv, d.why)
				}
				t.Logf("%s.%s differs deliberately (%s)\n claude:   %v\n toolpipe: %v", k, d.field, d.why, w[d.field], gv)
				delete(w, d.field)
				delete(gn, d.field)
			}
			for _, f := range slices.Sorted(func(yield func(string) bool) {
				for f := range w {
					if !yield(f) {
						return
					}
				}
				for f := range gn {
					if _, dup := w[f]; !dup && !yield(f) {
						return
					}
				}
			}) {
				compared++
				wv, wok := w[f]
				gv, gok := gn[f]
				wj, _ := json.Marshal(wv)
				gj, _ := json.Marshal(gv)
				if wok != gok || string(wj) != string(gj) {
					t.Errorf("%s.%s:\n claude:   %s (present %v)\n toolpipe: %s (present %v)", k, f, wj, wok, gj, gok)
				}
			}
		})
	}
	t.Logf("hooks: compared %d fields of %d hook inputs", compared, len(keys))
}
