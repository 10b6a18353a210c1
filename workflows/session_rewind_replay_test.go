package workflows_test

import (
	"os"
	"testing"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/workflows"
)

// The recorded histories of history, rewind and fork (session_rewind.go), each
// with the workflow id it ran under: a prompt that records a mark per model call
// (turn-history), the run that served a rewind of the closed session, the prompt a
// rewind interrupted while its turn ran, and the run that made a fork.
var rewindHistories = map[string]string{
	"testdata/session_history_rewind_marks.json":   rewindReplayID + "-s1",
	"testdata/session_history_rewind.json":         rewindReplayID + "-s1",
	"testdata/session_history_rewind_running.json": rewindReplayID + "-s9",
	"testdata/session_history_fork.json":           rewindReplayID + "-s2",
	// workspace-timeline: a prompt with checkpoints recording its timeline, and
	// the run that rewound its code and conversation.
	"testdata/session_history_rewind_code_prompt.json": rewindReplayID + "-c1",
	"testdata/session_history_rewind_code.json":        rewindReplayID + "-c1",
}

const rewindReplayID = "session-rewind-recorded"

// TestRewindReplay replays them against the current code. Record them again with
// TOOLPIPE_RECORD_REWIND=1 only for a deliberate, versioned change.
func TestRewindReplay(t *testing.T) {
	if os.Getenv("TOOLPIPE_RECORD_REWIND") == "1" {
		recordRewindHistories(t)
	}
	if os.Getenv("TOOLPIPE_RECORD_REWIND_CODE") == "1" {
		recordRewindCodeHistories(t)
	}
	for path, id := range rewindHistories {
		replayHistory(t, path, id)
	}
}

func recordRewindHistories(t *testing.T) {
	h := newRewindHarness(t)
	h.id = rewindReplayID
	h.prompt("s1", "Do the five turns", fastOptions())
	write := func(path, id string) {
		testenv.WriteHistory(t, path, testenv.History(t, h.c, id, runOf(t, h.c, id)))
	}
	write("testdata/session_history_rewind_marks.json", h.id+"-s1")
	if _, err := h.rewind("s1", conversation.RewindTarget{Turn: 4}); err != nil {
		t.Fatal(err)
	}
	write("testdata/session_history_rewind.json", h.id+"-s1")
	if _, err := h.fork("s2", "s1", conversation.RewindTarget{Turn: 3}); err != nil {
		t.Fatal(err)
	}
	write("testdata/session_history_fork.json", h.id+"-s2")

	r := newIdleAgentHarness(t)
	r.runScript(runningScript())
	rh := &rewindHarness{agentHarness: r, id: rewindReplayID}
	run := rh.startRunning(t, "s9")
	if _, err := rh.rewind("s9", conversation.RewindTarget{Turn: 2}); err != nil {
		t.Fatal(err)
	}
	r.result(run)
	write2 := func(path, id string) {
		testenv.WriteHistory(t, path, testenv.History(t, r.c, id, run.GetRunID()))
	}
	write2("testdata/session_history_rewind_running.json", rh.id+"-s9")
}

func recordRewindCodeHistories(t *testing.T) {
	h := newRewindHarness(t)
	h.id, h.checkpoints = rewindReplayID, true
	h.prompt("c1", "Do the five turns", fastOptions())
	write := func(path, id string) {
		testenv.WriteHistory(t, path, testenv.History(t, h.c, id, runOf(t, h.c, id)))
	}
	write("testdata/session_history_rewind_code_prompt.json", h.id+"-c1")
	if _, err := h.rewind("c1", conversation.RewindTarget{Turn: 4}); err != nil {
		t.Fatal(err)
	}
	write("testdata/session_history_rewind_code.json", h.id+"-c1")
}

// runOf is the latest run of workflow id.
func runOf(t *testing.T, c client.Client, id string) string {
	t.Helper()
	d, err := c.DescribeWorkflowExecution(testenv.Context(t), id, "")
	if err != nil {
		t.Fatal(err)
	}
	return d.GetWorkflowExecutionInfo().GetExecution().GetRunId()
}

var _ = workflows.RewindUpdate
