package parity

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// result is one tool_result as compared: its text and whether it is an error.
type result struct {
	Content string
	IsError bool
}

// claudeRun is one Claude Code process that ran every case of a suite, one
// assistant message per case, in a working directory of its own.
type claudeRun struct {
	once    sync.Once
	root    string
	results map[string]result
}

var suites = map[string]*claudeRun{}
var suitesMu sync.Mutex

// claudeResults runs all cases of a suite through Claude Code once per test binary
// and returns what it sent back, by tool_use id, normalised.
func claudeResults(t *testing.T, suite string, cases []parityCase, extra ...string) *claudeRun {
	t.Helper()
	bin := claudeCode(t)
	suitesMu.Lock()
	run, ok := suites[suite]
	if !ok {
		run = &claudeRun{}
		suites[suite] = run
	}
	suitesMu.Unlock()
	run.once.Do(func() {
		root := t.TempDir()
		var script [][]scriptBlock
		for _, c := range cases {
			c.setup(t, root)
			script = append(script, c.script(root))
		}
		m, url := newRecordingModel(t, script)
		runClaude(t, bin, root, url, extra...)
		run.root, run.results = root, map[string]result{}
		for _, c := range cases {
			for i := range c.blocks {
				if r, ok := m.result(c.id(i)); ok {
					run.results[c.id(i)] = result{Content: normalise(flatten(r.Content), root), IsError: r.IsError}
				}
			}
		}
	})
	if run.results == nil {
		t.Fatal("the Claude Code run failed (see the first test that ran it)")
	}
	return run
}

// flatten turns a tool_result content (a string, or an array of blocks) into text;
// an image block becomes "[image]".
func flatten(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		} else {
			parts = append(parts, "["+b.Type+"]")
		}
	}
	return strings.Join(parts, "\n")
}

var (
	savedTo = regexp.MustCompile(`Full output saved to: \S+`)
	// bashJob is bash's report of a job killed by a signal, with its pid.
	bashJob = regexp.MustCompile(`(/bin/bash: line \d+: +)\d+ `)
)

// normalise replaces what differs by run and not by behaviour: the working
// directory, where a persisted output was saved, and process ids in bash's
// reports.
func normalise(s, root string) string {
	s = strings.ReplaceAll(s, root, "<W>")
	s = bashJob.ReplaceAllString(s, "${1}<PID> ")
	return savedTo.ReplaceAllString(s, "Full output saved to: <PATH>")
}

// toolpipeResults runs every case as one Turn of the real tool activities on the
// embedded test server, in a working directory set up as Claude Code's was.
func toolpipeResults(t *testing.T, cases []parityCase) (string, map[string]result) {
	t.Helper()
	root := t.TempDir()
	acts, err := activities.New(activities.Config{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	queue := testenv.TaskQueue(t)
	c := testenv.Client()
	testenv.StartWorker(t, queue, func(r sdkworker.Registry) { plugin.Register(r, acts) })
	out := map[string]result{}
	for n, pc := range cases {
		pc.setup(t, root)
		var blocks []tool.Block
		for _, b := range pc.script(root) {
			blocks = append(blocks, tool.Block{ID: b.ID, Name: b.Name, Input: b.Input})
		}
		run, err := c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{
			ID: fmt.Sprintf("parity-%s-%d", queue, n), TaskQueue: queue,
		}, contract.TurnWorkflowName, workflows.TurnInput{SessionID: "parity", Workdir: root, Blocks: blocks, CloseIntake: true})
		if err != nil {
			t.Fatal(err)
		}
		var res workflows.TurnResult
		if err := run.Get(testenv.Context(t), &res); err != nil {
			t.Fatalf("%s: turn failed: %v", pc.name, err)
		}
		for _, r := range res.Results {
			out[r.ToolUseID] = result{Content: normalise(r.Content, root), IsError: r.IsError}
		}
	}
	return root, out
}

// compare runs the cases through both and checks each tool_result: equal to Claude
// Code's, or, for a deliberate difference, what the case wants instead; and the
// files each case left in its directory, byte for byte. extra are flags for Claude
// Code (--tools). It returns how many tool_results it compared.
func compare(t *testing.T, suite string, cases []parityCase, extra ...string) int {
	t.Helper()
	run := claudeResults(t, suite, cases, extra...)
	want := run.results
	tpRoot, got := toolpipeResults(t, cases)
	compared, trees := 0, 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.differs == "" && !c.keepTree {
				trees++
				compareTrees(t, tree(t, filepath.Join(run.root, c.name)), tree(t, filepath.Join(tpRoot, c.name)))
			}
			for i := range c.blocks {
				id := c.id(i)
				w, ok := want[id]
				if !ok {
					t.Fatalf("%s: Claude Code sent no result", id)
				}
				g := got[id]
				compared++
				if os.Getenv("PARITY_DUMP") != "" {
					t.Logf("%s claude: %q (is_error %v)", id, w.Content, w.IsError)
				}
				if check, ok := c.want[i]; ok {
					// A deliberate difference: Claude Code's answer is logged.
					if msg := check(g); msg != "" {
						t.Errorf("%s (%s): %s\n toolpipe: %q", id, c.differs, msg, clip(g.Content))
					}
					t.Logf("%s differs deliberately (%s)\n claude:   %q\n toolpipe: %q", id, c.differs, clip(w.Content), clip(g.Content))
					continue
				}
				if g != w {
					t.Errorf("%s:\n claude:   %q (is_error %v)\n toolpipe: %q (is_error %v)", id, clip(w.Content), w.IsError, clip(g.Content), g.IsError)
				}
			}
		})
	}
	t.Logf("%s: compared %d tool_results of %d cases (and the files of %d)", suite, compared, len(cases), trees)
	return compared
}

// compareTrees reports every file that Claude Code and toolpipe left differently.
func compareTrees(t *testing.T, claude, toolpipe map[string]string) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(claude)) {
		g, ok := toolpipe[name]
		switch {
		case !ok:
			t.Errorf("file %s: Claude Code left it, toolpipe did not", name)
		case g != claude[name]:
			t.Errorf("file %s:\n claude:   %q\n toolpipe: %q", name, clip(claude[name]), clip(g))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(toolpipe)) {
		if _, ok := claude[name]; !ok {
			t.Errorf("file %s: toolpipe left it, Claude Code did not", name)
		}
	}
}

func clip(s string) string {
	if len(s) <= 600 {
		return s
	}
	return s[:300] + fmt.Sprintf(" …[%d chars]… ", len(s)) + s[len(s)-300:]
}

// Check helpers for deliberate differences.
func isErrorWith(prefix string) func(result) string {
	return func(r result) string {
		if !r.IsError || !strings.HasPrefix(r.Content, prefix) {
			return fmt.Sprintf("want an error starting %q", prefix)
		}
		return ""
	}
}

func isResult(content string) func(result) string {
	return func(r result) string {
		if r.IsError || r.Content != content {
			return fmt.Sprintf("want %q", content)
		}
		return ""
	}
}

func contains(part string) func(result) string {
	return func(r result) string {
		if !strings.Contains(r.Content, part) {
			return fmt.Sprintf("want it to contain %q", part)
		}
		return ""
	}
}

func rel(root, name string) string { return filepath.Join(root, name) }
