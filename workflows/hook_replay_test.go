package workflows_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// hookTurnHistory is a Turn with tool hooks and a transcript (hook-transcript,
// GetVersion 1), recorded again with TOOLPIPE_RECORD_HISTORY=1.
const hookTurnHistory = "testdata/turn_history_hook_transcript.json"

// TestTurnHookTranscriptReplay replays a turn that ran PreToolUse, PostToolUse and
// PostToolUseFailure hooks and wrote its transcript.
func TestTurnHookTranscriptReplay(t *testing.T) {
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		h := realHarness(t)
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o644)
		rec := script(t, "record", "sh")
		s := withHooks(group("*", rec), group("*", rec), group("*", rec))
		s.TranscriptPath = filepath.Join(dir, "transcript.jsonl")
		run := h.start(workflows.TurnInput{Workdir: dir, CloseIntake: true, Settings: s, Blocks: []tool.Block{
			{ID: "r1", Name: tool.ReadName, Input: raw(map[string]any{"file_path": filepath.Join(dir, "a.txt")})},
			bashB("b1", "echo hi"),
			bashB("b2", "exit 3"),
		}})
		h.result(run)
		testenv.WriteHistory(t, hookTurnHistory, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
	}
	replayHistory(t, hookTurnHistory, "")
}
