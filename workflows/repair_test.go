package workflows_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// repairedTurn runs the inputs Claude Code 2.1.328 coerces or repairs through a
// turn of the real tools: a Read limit as a string, an offset written 2.0, a
// Write with str_replace_editor's names, a Bash timeout as a string, and two
// inputs still refused after the repair.
func repairedTurn(t *testing.T, h *harness) (string, map[string]tool.Result, client.WorkflowRun) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(file, []byte("l1\nl2\nl3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	blocks := []tool.Block{
		{ID: "r1", Name: tool.ReadName, Input: json.RawMessage(`{"file_path":"` + file + `","limit":"2"}`)},
		{ID: "r2", Name: tool.ReadName, Input: json.RawMessage(`{"file_path":"` + file + `","offset":2.0,"limit":1}`)},
		{ID: "w1", Name: tool.WriteName, Input: json.RawMessage(`{"path":"` + filepath.Join(dir, "w.txt") + `","file_text":"hi\n"}`)},
		{ID: "b1", Name: tool.BashName, Input: json.RawMessage(`{"command":"echo t","timeout":"5000"}`)},
		{ID: "r3", Name: tool.ReadName, Input: json.RawMessage(`{"file_path":"` + file + `","limit":"1.5"}`)},
		{ID: "g1", Name: tool.GrepName, Input: json.RawMessage(`{"pattern":"l","path":"` + dir + `","head_limit":2.5}`)},
	}
	run := h.start(workflows.TurnInput{Workdir: dir, Blocks: blocks, CloseIntake: true})
	res := h.result(run)
	by := map[string]tool.Result{}
	for _, r := range res.Results {
		by[r.ToolUseID] = r
	}
	return dir, by, run
}

// TestTurnRepairsInputs: a turn runs what Claude Code runs, the Write's result
// says how its parameters were read, and what stays invalid is refused in Claude
// Code's words (never a decoding error of the tool).
func TestTurnRepairsInputs(t *testing.T) {
	h := realHarness(t)
	dir, by, _ := repairedTurn(t, h)
	want := map[string]tool.Result{
		"r1": {ToolUseID: "r1", Content: "1\tl1\n2\tl2"},
		"r2": {ToolUseID: "r2", Content: "2\tl2"},
		"w1": {ToolUseID: "w1", Content: "File created successfully at: " + filepath.Join(dir, "w.txt") +
			" (file state is current in your context — no need to Read it back)\n\nNote: Write's parameters are named `file_path` and `content`. `path` was read as `file_path`. `file_text` was read as `content`."},
		"b1": {ToolUseID: "b1", Content: "t"},
		"r3": {ToolUseID: "r3", IsError: true, Content: tool.UseError("InputValidationError: Read failed due to the following issue:\nThe parameter `limit` type is expected as `int` but provided as `number`")},
		"g1": {ToolUseID: "g1", IsError: true, Content: tool.UseError("head_limit must be a whole number of 0 or more, got 2.5. Pass 0 for unlimited.")},
	}
	for id, w := range want {
		if g := by[id]; g != w {
			t.Errorf("%s:\n got  %+v\n want %+v", id, g, w)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "w.txt")); err != nil || string(b) != "hi\n" {
		t.Errorf("w.txt: %q, %v", b, err)
	}
	for _, r := range by {
		if strings.Contains(r.Content, "undecodable") {
			t.Errorf("%s: a decoding error reached the model: %s", r.ToolUseID, r.Content)
		}
	}
}

// recordRepairedHistory records the turn above (change repaired-inputs).
func recordRepairedHistory(t *testing.T, path string) {
	h := realHarness(t)
	_, _, run := repairedTurn(t, h)
	testenv.WriteHistory(t, path, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
}

// decodedTurn runs inputs with escapes written out and paths with white space
// around them (change decoded-inputs): a Write of `caf\u00e9`, a Bash command
// printing one, a Read of "a.txt ", a Bash command after `cd <dir> && `.
func decodedTurn(t *testing.T, h *harness) (string, map[string]tool.Result, client.WorkflowRun) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(file, []byte("l1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	blocks := []tool.Block{
		{ID: "w1", Name: tool.WriteName, Input: json.RawMessage(`{"file_path":"` + filepath.Join(dir, "w.txt") + `","content":"caf\\u00e9 \\\\u00e9\n"}`)},
		{ID: "b1", Name: tool.BashName, Input: json.RawMessage(`{"command":"echo \\u0074\\u00e9"}`)},
		{ID: "r1", Name: tool.ReadName, Input: json.RawMessage(`{"file_path":" ` + file + ` "}`)},
		{ID: "b2", Name: tool.BashName, Input: json.RawMessage(`{"command":"cd ` + dir + ` && echo cd-ok"}`)},
	}
	run := h.start(workflows.TurnInput{Workdir: dir, Blocks: blocks, CloseIntake: true})
	res := h.result(run)
	by := map[string]tool.Result{}
	for _, r := range res.Results {
		by[r.ToolUseID] = r
	}
	return dir, by, run
}

// TestTurnDecodesInputs: a turn decodes the escapes a model wrote out and trims
// paths, as Claude Code 2.1.328 does (test/parity: TestParitySweep).
func TestTurnDecodesInputs(t *testing.T) {
	h := realHarness(t)
	dir, by, _ := decodedTurn(t, h)
	if b, err := os.ReadFile(filepath.Join(dir, "w.txt")); err != nil || string(b) != "café \\\\u00e9\n" {
		t.Errorf("w.txt: %q, %v", b, err)
	}
	if r := by["b1"]; r.Content != "té" || r.IsError {
		t.Errorf("Bash: %+v", r)
	}
	if r := by["b2"]; r.Content != "cd-ok" || r.IsError {
		t.Errorf("Bash after cd: %+v", r)
	}
	if r := by["r1"]; r.Content != "1\tl1\n2\t" || r.IsError { // the empty line after the last newline, as Claude Code shows it
		t.Errorf("Read of a path with white space around it: %+v", r)
	}
}

// recordDecodedHistory records the turn above (change decoded-inputs).
func recordDecodedHistory(t *testing.T, path string) {
	h := realHarness(t)
	_, _, run := decodedTurn(t, h)
	testenv.WriteHistory(t, path, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
}
