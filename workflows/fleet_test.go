package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// placementReplayID is the recorded placed session's workflow id.
const placementReplayID = "session-placement-recorded"

var placementHistories = []struct{ path, id string }{
	{"testdata/session_history_placement.json", placementReplayID},
	{"testdata/turn_history_placement.json", placementReplayID + "/turn-1"},
}

// hostWorker is a fleet worker of host on the harness's queue, with a state
// directory of its own (placement: worker/placement.go).
func (h *agentHarness) hostWorker(host string, maxSessions int) {
	h.t.Helper()
	h.t.Setenv("ANTHROPIC_API_KEY", testAPIKey)
	h.t.Setenv("ANTHROPIC_BASE_URL", h.fake.URL())
	w, err := plugin.Start(plugin.Config{Client: h.c, TaskQueue: h.queue, StateDir: h.t.TempDir(), Host: host, MaxSessions: maxSessions})
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(w.Stop)
}

// Issue 26 item 2: a session that asks for placement is put on one host, records
// it (the state query, the details), and every tool activity of its turns goes to
// that host's task queue, while its model calls stay on the shared queue.
func TestPlacedSessionRunsItsToolsOnItsHost(t *testing.T) {
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		defer recordPlacementHistories(t)
	}
	h := newIdleAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{use("w1", "Write", map[string]any{"file_path": "placed.txt", "content": "on a host\n"})}},
		fakeanthropic.Response{Content: []wire.Block{text("Placed.")}},
	)
	h.hostWorker("host-a", 4)
	run := h.start(workflows.SessionInput{SessionID: "placed", Prompt: "go", Place: true, Options: fastOptions()})
	if res := h.result(run); res.Text != "Placed." {
		t.Fatalf("session: %+v", res)
	}
	if b, err := os.ReadFile(filepath.Join(h.work, "placed.txt")); err != nil || string(b) != "on a host\n" {
		t.Fatalf("the Write did not run: %q %v", b, err)
	}
	hostQueue := contract.HostQueue(h.queue, "host-a")
	v, err := h.c.QueryWorkflow(testenv.Context(t), run.GetID(), "", contract.SessionStateQuery)
	if err != nil {
		t.Fatal(err)
	}
	var st workflows.SessionState
	if err := v.Get(&st); err != nil || st.Placement == nil || st.Placement.Host != "host-a" || st.Placement.Queue != hostQueue {
		t.Fatalf("state placement = %+v, %v", st.Placement, err)
	}
	queues := map[string]string{}
	for _, id := range []string{run.GetID(), run.GetID() + "/turn-1"} {
		for _, ev := range testenv.History(t, h.c, id, "") {
			if ev.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED {
				a := ev.GetActivityTaskScheduledEventAttributes()
				queues[a.GetActivityType().GetName()] = a.GetTaskQueue().GetName()
			}
		}
	}
	want := map[string]string{
		contract.PlaceSessionActivityName: h.queue, contract.ModelActivityName: h.queue, contract.AppendActivityName: h.queue,
		contract.ToolActivity("Write"): hostQueue, contract.ReleaseSessionActivityName: hostQueue,
	}
	for name, q := range want {
		if queues[name] != q {
			t.Errorf("%s was scheduled on %q, want %q (all: %v)", name, queues[name], q, queues)
		}
	}
}

// A session that does not ask for placement schedules no placement activity and
// leaves its tools on its own queue: the embedded default is unchanged.
func TestUnplacedSessionSchedulesNoPlacement(t *testing.T) {
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{use("r1", "Glob", map[string]any{"pattern": "*"})}},
		fakeanthropic.Response{Content: []wire.Block{text("Done.")}},
	)
	run := h.start(workflows.SessionInput{Prompt: "go", Options: fastOptions()})
	h.result(run)
	hist := h.history(run.GetID())
	for _, no := range []string{contract.PlaceSessionActivityName, "session-placement", "#host:"} {
		if strings.Contains(hist, no) {
			t.Errorf("an unplaced session's history has %q", no)
		}
	}
}

// TestPlacementReplay replays the recorded placed session and its turn.
func TestPlacementReplay(t *testing.T) {
	for _, hist := range placementHistories {
		replayHistory(t, hist.path, hist.id)
	}
}

func recordPlacementHistories(t *testing.T) {
	h := newIdleAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{use("w1", "Write", map[string]any{"file_path": "placed.txt", "content": "x\n"})}},
		fakeanthropic.Response{Content: []wire.Block{text("Placed.")}},
	)
	h.hostWorker("host-rec", 4)
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: placementReplayID, TaskQueue: h.queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: "placerec", Prompt: "record", Workdir: h.work, Place: true, Options: fastOptions()})
	if err != nil {
		t.Fatal(err)
	}
	h.result(run)
	for _, hist := range placementHistories {
		runID := ""
		if hist.id == placementReplayID {
			runID = run.GetRunID()
		}
		testenv.WriteHistory(t, filepath.FromSlash(hist.path), testenv.History(t, h.c, hist.id, runID))
	}
}
