package workflows_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/internal/checkpoint"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// checkpointReplayID is the recorded session with checkpoints' workflow id.
const checkpointReplayID = "session-checkpoints-recorded"

const checkpointHistory = "testdata/session_history_checkpoints.json"

// checkpointScript writes a.txt (turn 1), reads it (turn 2, read-only: no
// checkpoint), writes b.txt with Bash (turn 3), and ends.
func checkpointScript() []fakeanthropic.Response {
	return []fakeanthropic.Response{
		{Content: []wire.Block{use("w1", "Write", map[string]any{"file_path": "a.txt", "content": "one\n"})}},
		{Content: []wire.Block{use("r1", "Read", map[string]any{"file_path": "a.txt"})}},
		{Content: []wire.Block{use("b1", "Bash", map[string]any{"command": "echo two > b.txt"})}},
		{Content: []wire.Block{text("Done.")}},
	}
}

// Issue 26 item 4: a session with checkpoints captures its workspace when it starts
// and after every turn whose calls may change files (not after a read-only one),
// records which turn produced which checkpoint (state query, details, carried
// across continue-as-new), and each checkpoint restores to what that turn left.
func TestSessionCheckpointsEveryTurnThatMayChangeFiles(t *testing.T) {
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		defer recordCheckpointHistory(t)
	}
	h := newIdleAgentHarness(t, checkpointScript()...)
	if err := os.WriteFile(filepath.Join(h.work, "seed.txt"), []byte("seed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.startWorker()
	opts := fastOptions()
	opts.ContinueAsNewEvery = 2 // the records cross runs
	run := h.start(workflows.SessionInput{Prompt: "go", Checkpoints: true, Options: opts})
	firstRun := run.GetRunID() // Get follows continue-as-new, and the run's id with it
	if res := h.result(run); res.Text != "Done." {
		t.Fatalf("session: %+v", res)
	}
	v, err := h.c.QueryWorkflow(testenv.Context(t), run.GetID(), "", contract.SessionStateQuery)
	if err != nil {
		t.Fatal(err)
	}
	var st workflows.SessionState
	if err := v.Get(&st); err != nil {
		t.Fatal(err)
	}
	cps := st.Checkpoints
	if len(cps) != 3 {
		t.Fatalf("checkpoints = %+v, want the start, turn 1 and turn 3", cps)
	}
	want := []struct{ turn, files, changed int }{{0, 1, 1}, {1, 2, 1}, {3, 3, 1}}
	for i, w := range want {
		c := cps[i]
		if c.Turn != w.turn || c.Files != w.files || c.Changed != w.changed || len(c.Checkpoint) != 64 || c.Run == "" {
			t.Errorf("checkpoint %d = %+v, want turn %d, %d files, %d changed", i, c, w.turn, w.files, w.changed)
		}
	}
	if cps[0].Message != 0 || cps[1].Message == 0 || cps[2].Message <= cps[1].Message {
		t.Errorf("messages: %+v", cps)
	}
	if cps[0].Run == cps[2].Run {
		t.Errorf("the session continued as new, yet every checkpoint has run %s", cps[0].Run)
	}
	// Each restores what its turn left.
	store, err := blobstore.Open(context.Background(), blobstore.Config{StateDir: h.state})
	if err != nil {
		t.Fatal(err)
	}
	cp, err := checkpoint.New(checkpoint.Config{Store: store, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	wantFiles := []map[string]string{
		{"seed.txt": "seed\n"},
		{"seed.txt": "seed\n", "a.txt": "one\n"},
		{"seed.txt": "seed\n", "a.txt": "one\n", "b.txt": "two\n"},
	}
	for i, c := range cps {
		dest := filepath.Join(t.TempDir(), "ws")
		if _, err := cp.Restore(context.Background(), c.Checkpoint, dest); err != nil {
			t.Fatalf("restore %d: %v", i, err)
		}
		got := map[string]string{}
		entries, _ := os.ReadDir(dest)
		for _, e := range entries {
			b, _ := os.ReadFile(filepath.Join(dest, e.Name()))
			got[e.Name()] = string(b)
		}
		if len(got) != len(wantFiles[i]) {
			t.Errorf("checkpoint %d restores %v, want %v", i, got, wantFiles[i])
		}
		for name, content := range wantFiles[i] {
			if got[name] != content {
				t.Errorf("checkpoint %d: %s = %q, want %q", i, name, got[name], content)
			}
		}
		// The session's record of it is in the store, for readers without the history.
		k, _ := blobstore.CheckpointRecordKey("s1", c.Checkpoint)
		if ok, err := store.Exists(context.Background(), k); !ok || err != nil {
			t.Errorf("no record %s: %v", k, err)
		}
	}
	md := workflows.RenderSessionDetails(workflows.SessionDetails{State: st})
	for _, w := range []string{"checkpoint at start (after turn 0) | `" + cps[0].Checkpoint[:12], "checkpoint after turn 3 | `" + cps[2].Checkpoint[:12] + "` (3 files, 1 changed)"} {
		if !strings.Contains(md, w) {
			t.Errorf("details lack %q:\n%s", w, md)
		}
	}
	checkCapturesNeverOverlapTools(t, h, run.GetID(), firstRun)
}

// checkCapturesNeverOverlapTools: in every run of the session, a capture ends before
// the next Turn starts (its tools change what the capture reads), and the first one
// runs beside the first model call instead of before it.
func checkCapturesNeverOverlapTools(t *testing.T, h *agentHarness, id, firstRun string) {
	t.Helper()
	var events []*historypb.HistoryEvent
	for runID := firstRun; runID != ""; { // every run, following continue-as-new
		run := testenv.History(t, h.c, id, runID)
		events = append(events, run...)
		runID = run[len(run)-1].GetWorkflowExecutionContinuedAsNewEventAttributes().GetNewExecutionRunId()
	}
	open := map[int64]bool{} // scheduled captures not yet ended
	captures, firstModel, firstCapture := 0, int64(0), int64(0)
	for _, ev := range events {
		if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED {
			if len(open) > 0 {
				t.Errorf("a run continued as new while a capture ran (%v)", open)
			}
			open = map[int64]bool{}
		}
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			switch a.GetActivityType().GetName() {
			case contract.CaptureCheckpointActivityName:
				open[ev.GetEventId()] = true
				captures++
				if firstCapture == 0 {
					firstCapture = ev.GetEventId()
				}
			case contract.ModelActivityName:
				if firstModel == 0 {
					firstModel = ev.GetEventId()
				}
			}
		}
		if a := ev.GetActivityTaskCompletedEventAttributes(); a != nil {
			delete(open, a.GetScheduledEventId())
		}
		if ev.GetStartChildWorkflowExecutionInitiatedEventAttributes() != nil && len(open) > 0 {
			t.Errorf("event %d starts a Turn while a capture runs (%v)", ev.GetEventId(), open)
		}
	}
	if captures != 3 {
		t.Errorf("%d captures scheduled, want 3", captures)
	}
	if firstCapture == 0 || firstModel == 0 || firstCapture > firstModel {
		t.Errorf("the first capture (event %d) was not started before the first model call (event %d)", firstCapture, firstModel)
	}
}

// A session that does not ask for checkpoints captures nothing and records no
// marker: the embedded default is unchanged.
func TestSessionWithoutCheckpointsCapturesNothing(t *testing.T) {
	h := newAgentHarness(t, checkpointScript()...)
	run := h.start(workflows.SessionInput{Prompt: "go", Options: fastOptions()})
	h.result(run)
	hist := h.history(run.GetID())
	for _, no := range []string{contract.CaptureCheckpointActivityName, "turn-checkpoints"} {
		if strings.Contains(hist, no) {
			t.Errorf("a session without checkpoints has %q in its history", no)
		}
	}
}

// TestCheckpointReplay replays the recorded session with checkpoints.
func TestCheckpointReplay(t *testing.T) {
	replayHistory(t, checkpointHistory, checkpointReplayID)
}

func recordCheckpointHistory(t *testing.T) {
	h := newAgentHarness(t, checkpointScript()...)
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: checkpointReplayID, TaskQueue: h.queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: "ckrec", Prompt: "record", Workdir: h.work, Checkpoints: true, Options: fastOptions()})
	if err != nil {
		t.Fatal(err)
	}
	h.result(run)
	testenv.WriteHistory(t, checkpointHistory, testenv.History(t, h.c, checkpointReplayID, run.GetRunID()))
}
