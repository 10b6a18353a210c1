package workflows_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// backgroundReplayID is the recorded background session's workflow id; its turns'
// ids derive from it.
const backgroundReplayID = "session-background-recorded"

// backgroundHistories are the recorded histories of change background-shells: the
// session (a background command started, another stopped by TaskStop, the session
// waiting after the model's last word until the first ends and its notification
// wakes the model) and the turns that started and stopped them.
var backgroundHistories = []struct{ path, id string }{
	{"testdata/session_history_background.json", backgroundReplayID},
	{"testdata/turn_history_background_start.json", backgroundReplayID + "/turn-2"},
	{"testdata/turn_history_background_stop.json", backgroundReplayID + "/turn-4"},
}

// TestBackgroundReplay replays them against the current code. Record them again with
// TOOLPIPE_RECORD_HISTORY=1 only for a deliberate, versioned change.
func TestBackgroundReplay(t *testing.T) {
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		recordBackgroundHistories(t)
	}
	for _, hist := range backgroundHistories {
		replayHistory(t, hist.path, hist.id)
	}
}

func recordBackgroundHistories(t *testing.T) {
	work := t.TempDir()
	release := mkfifo(t, work, "release")
	h := newIdleAgentHarness(t)
	h.fake.Add(
		fakeanthropic.Response{Content: []wire.Block{
			use("bg1", "Bash", map[string]any{"command": "read x < release; echo done", "description": "wait", "run_in_background": true}),
			use("bg2", "Bash", map[string]any{"command": "exec sleep 300", "run_in_background": true}),
		}},
		fakeanthropic.Response{Content: []wire.Block{use("stop", "TaskStop", map[string]any{"task_id": tool.BackgroundTaskID("bg2")})}},
		fakeanthropic.Response{Content: []wire.Block{text("Waiting.")}},
		fakeanthropic.Response{When: "<task-notification>", Content: []wire.Block{text("Done.")}},
	)
	h.startWorker()
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: backgroundReplayID, TaskQueue: h.queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: "bgrec", Prompt: "record", Workdir: work, Options: fastOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.fake.WaitRequests(testenv.Context(t), 3); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(release, []byte("go\n"), 0); err != nil {
		t.Fatal(err)
	}
	if res := h.result(run); res.Text != "Done." {
		t.Fatalf("recorded session: %+v", res)
	}
	for _, hist := range backgroundHistories {
		runID := ""
		if hist.id == backgroundReplayID {
			runID = run.GetRunID()
		}
		testenv.WriteHistory(t, filepath.FromSlash(hist.path), testenv.History(t, h.c, hist.id, runID))
	}
}
