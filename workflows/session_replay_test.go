package workflows_test

import (
	"os"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// sessionHistories are recorded Session histories, oldest first; recording writes a
// new one as the last. session_history.json predates tasks-start-as-streamed (its
// Task starts when the message has ended); session_history_tasks.json has the Task
// started by a StartTask update while the message streams;
// session_history_turn_on_tool_use.json has the turn started by the model activity's
// OpenTurn update, numbered turn-1, and no turn for the final text-only reply.
var sessionHistories = []string{"testdata/session_history.json", "testdata/session_history_tasks.json",
	"testdata/session_history_cancelled.json", // ended-status: a cancelled session with search attributes
	"testdata/session_history_turn_on_tool_use.json",
	"testdata/session_history_prefixed.json"} // prefixed-names: "toolpipe.CallModel", a "toolpipe.Turn" child

// sessionRecorders record the newest history when it is not recordSessionHistory's.
var sessionRecorders = map[string]func(t *testing.T, path string){
	"testdata/session_history_cancelled.json": recordCancelledSessionHistory,
}

const (
	// sessionReplayID is the recorded session's workflow id: child workflow ids derive
	// from it, so the replay must run under the same one.
	sessionReplayID = "session-replay-recorded"
)

// TestSessionReplay replays the recorded Session histories (a streamed turn, a budget
// replacement, a user message sent mid-turn, a sub-agent) against the current code: a
// change that would break running sessions fails here. Record it again with
// TOOLPIPE_RECORD_HISTORY=1 only for a deliberate, versioned change.
func TestSessionReplay(t *testing.T) {
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		if rec, ok := sessionRecorders[sessionHistories[len(sessionHistories)-1]]; ok {
			rec(t, sessionHistories[len(sessionHistories)-1])
		} else {
			recordSessionHistory(t)
		}
	}
	for _, path := range sessionHistories {
		replayHistory(t, path, sessionReplayID)
	}
}

func recordSessionHistory(t *testing.T) {
	hold := make(chan struct{})
	h := newAgentHarness(t,
		fakeanthropic.Response{When: "record", Content: []wire.Block{
			text("Two big outputs and a sub-agent."),
			use("r1", "Bash", map[string]any{"command": "seq 1 4000"}),
			use("r2", "Bash", map[string]any{"command": "seq 1 3000"}),
			use("r3", "Task", map[string]any{"description": "child", "prompt": "child task"}),
		}, HoldBeforeEnd: hold},
		fakeanthropic.Response{When: "child task", Content: []wire.Block{text("child done")}},
		fakeanthropic.Response{When: "also this", Content: []wire.Block{text("all done")}},
	)
	opts := fastOptions()
	opts.BudgetChars = 20_000
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: sessionReplayID, TaskQueue: h.queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: "rec", Prompt: "record", Workdir: h.work, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.fake.WaitRequests(testenv.Context(t), 1); err != nil {
		t.Fatal(err)
	}
	if err := h.sendMessage(run.GetID(), "also this"); err != nil {
		t.Fatal(err)
	}
	close(hold)
	h.result(run)
	testenv.WriteHistory(t, sessionHistories[len(sessionHistories)-1], testenv.History(t, h.c, run.GetID(), run.GetRunID()))
}
