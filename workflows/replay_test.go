package workflows_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// turnHistories are recorded Turn histories, oldest first: each recorded by the code
// of its time, so that turns started by every earlier version still replay. The last
// one is recorded again by TOOLPIPE_RECORD_HISTORY=1; a deliberate, versioned change
// adds a new file instead.
var turnHistories = []string{
	"testdata/turn_history.json",                // before start-input-first
	"testdata/turn_history_start_first.json",    // start-input-first (GetVersion 1)
	"testdata/turn_history_cancelled.json",      // terminal-status: a cancelled turn with search attributes
	"testdata/turn_history_reject_alone.json",   // rejected-input-alone: a refused Bash input cascades no more
	"testdata/turn_history_failed.json",         // ended-status: a failed turn with search attributes
	"testdata/turn_history_denied_cascade.json", // before denied-call-alone: a hook-denied Bash cancels its sibling (recorded by 62fccda)
	"testdata/turn_history_denied_alone.json",   // denied-call-alone: a denied Bash cascades no more
	"testdata/turn_history_repaired.json",       // repaired-inputs: inputs read as Claude Code reads them
	"testdata/turn_history_decoded.json",        // decoded-inputs: escapes written out decoded, paths trimmed
}

// turnRecorders record a history again with TOOLPIPE_RECORD_HISTORY=1 (only the
// newest is recorded: older ones are what older code wrote).
var turnRecorders = map[string]func(t *testing.T, path string){
	"testdata/turn_history_cancelled.json":    recordCancelledTurnHistory,
	"testdata/turn_history_reject_alone.json": recordTurnHistory,
	"testdata/turn_history_failed.json":       recordFailedTurnHistory,
	"testdata/turn_history_denied_alone.json": recordDeniedAloneHistory,
	"testdata/turn_history_repaired.json":     recordRepairedHistory,
	"testdata/turn_history_decoded.json":      recordDecodedHistory,
}

// TestTurnReplay replays the recorded Turn histories (streamed blocks, a Bash error
// cascade, an unknown tool, an Edit after a Read) against the current code: a change
// that would break running turns fails here.
func TestTurnReplay(t *testing.T) {
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		last := turnHistories[len(turnHistories)-1]
		turnRecorders[last](t, last)
	}
	for _, h := range turnHistories {
		replayHistory(t, h, "")
	}
}

func recordTurnHistory(t *testing.T, path string) {
	h := realHarness(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, []byte("draft\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := h.start(workflows.TurnInput{Workdir: dir, Blocks: []tool.Block{
		{ID: "r1", Name: tool.ReadName, Input: raw(map[string]any{"file_path": file})},
		bashB("b1", "ls"),
	}})
	h.mustUpdate(run, workflows.AddBlocksUpdate, []tool.Block{
		{ID: "e1", Name: tool.EditName, Input: raw(map[string]any{"file_path": file, "old_string": "draft", "new_string": "final"})},
		{ID: "u1", Name: "Nope", Input: raw(map[string]any{})},
		{ID: "x1", Name: tool.BashName, Input: raw(map[string]any{"command": "echo refused", "bogus": true})},
		bashB("b2", "ls /not-there"),
		bashB("b3", "echo never"),
	})
	h.mustUpdate(run, workflows.CloseIntakeUpdate)
	h.result(run)
	testenv.WriteHistory(t, path, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
}

// recordCancelledTurnHistory records a turn with search attributes that is cancelled
// after its first tool completed: its last commands are the terminal status.
func recordCancelledTurnHistory(t *testing.T, path string) {
	ensureSearchAttributes(t)
	h := realHarness(t)
	dir := t.TempDir()
	run := h.start(workflows.TurnInput{SessionID: "sess-replay", Workdir: dir, SearchAttributes: true,
		Blocks: []tool.Block{bashB("b1", "echo one")}})
	h.mustUpdate(run, workflows.AddBlocksUpdate, []tool.Block{bashB("b2", "sleep 30")})
	h.waitState(run, "b2 running", func(s workflows.TurnState) bool {
		return len(s.Tools) == 2 && s.Tools[1].Status == "executing"
	})
	if err := h.c.CancelWorkflow(testenv.Context(t), run.GetID(), run.GetRunID()); err != nil {
		t.Fatal(err)
	}
	_ = run.Get(testenv.Context(t), nil)
	testenv.WriteHistory(t, path, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
}
