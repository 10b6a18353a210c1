package workflows_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// hostLossReplayID is the recorded moved session's workflow id.
const hostLossReplayID = "session-host-loss-recorded"

const hostLossHistory = "testdata/session_history_host_loss.json"

// sharedHostWorker is a fleet worker of host with a state directory of its own and
// the blob store every host shares.
func (h *agentHarness) sharedHostWorker(host string, store *blobstore.Store) sdkworker.Worker {
	h.t.Helper()
	h.t.Setenv("ANTHROPIC_API_KEY", testAPIKey)
	h.t.Setenv("ANTHROPIC_BASE_URL", h.fake.URL())
	w, err := plugin.Start(plugin.Config{Client: h.c, TaskQueue: h.queue, StateDir: h.t.TempDir(), Host: host, MaxSessions: 4, Blob: store})
	if err != nil {
		h.t.Fatal(err)
	}
	return w
}

// hostLossRun: turn 1 writes one.txt on host A (checkpointed); host A's worker goes
// while the model writes turn 2, whose Write then waits in host A's queue until its
// schedule-to-start timeout: reported as not run (HostLostMessage); the probe finds
// no host A, the session moves to host B (placement 2), the checkpoint of turn 1 is
// restored there, and turn 3 writes two.txt on host B.
func hostLossRun(t *testing.T, id string) (*agentHarness, client.WorkflowRun, string) {
	hold := make(chan struct{})
	h := newIdleAgentHarness(t,
		fakeanthropic.Response{When: "go", Content: []wire.Block{use("w1", "Write", map[string]any{"file_path": "one.txt", "content": "1\n"})}},
		fakeanthropic.Response{When: "one.txt", HoldBeforeEnd: hold, Content: []wire.Block{use("w2", "Write", map[string]any{"file_path": "lost.txt", "content": "x\n"})}},
		fakeanthropic.Response{When: "interrupted", Content: []wire.Block{use("w3", "Write", map[string]any{"file_path": "two.txt", "content": "2\n"})}},
		fakeanthropic.Response{When: "two.txt", Content: []wire.Block{text("Moved.")}},
	)
	store, err := blobstore.Open(context.Background(), blobstore.Config{URL: "file://" + t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	a := h.sharedHostWorker("host-a", store)
	opts := fastOptions()
	opts.Turn.HostStartTimeout = 2 * time.Second
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: id, TaskQueue: h.queue}, contract.SessionWorkflowName,
		workflows.SessionInput{SessionID: "mover", Prompt: "go", Workdir: h.work, Place: true, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	firstRun := run.GetRunID()
	if err := h.fake.WaitRequests(testenv.Context(t), 2); err != nil {
		t.Fatal(err)
	}
	b := h.sharedHostWorker("host-b", store) // takes the model call's retry, if any, and the move
	t.Cleanup(b.Stop)
	a.Stop()
	if err := os.RemoveAll(h.work); err != nil { // host A's disk went with it
		t.Fatal(err)
	}
	close(hold)
	return h, run, firstRun
}

// Issue 26 item 5, in one process: a session whose host is gone between turns
// moves to another host, restores its last checkpoint there, and goes on; the call
// that never started is reported as not run.
func TestSessionMovesWhenItsHostIsGone(t *testing.T) {
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		defer recordHostLossHistory(t)
	}
	h, run, _ := hostLossRun(t, "host-loss-"+testenv.TaskQueue(t))
	if res := h.result(run); res.Text != "Moved." {
		t.Fatalf("session: %+v", res)
	}
	var st workflows.SessionState
	v, err := h.c.QueryWorkflow(testenv.Context(t), run.GetID(), "", contract.SessionStateQuery)
	if err != nil || v.Get(&st) != nil {
		t.Fatal(err)
	}
	if st.Placement == nil || st.Placement.Host != "host-b" || st.Placement.Generation != 2 {
		t.Fatalf("placement after the move: %+v", st.Placement)
	}
	for name, want := range map[string]string{"one.txt": "1\n", "two.txt": "2\n"} {
		if b, err := os.ReadFile(filepath.Join(h.work, name)); err != nil || string(b) != want {
			t.Errorf("%s = %q %v, want %q", name, b, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(h.work, "lost.txt")); err == nil {
		t.Error("the call that never started ran")
	}
	told := false
	for _, r := range h.fake.Requests() {
		told = told || strings.Contains(string(r.Body), workflows.HostLostMessage)
	}
	if !told {
		t.Errorf("the model was not told %q", workflows.HostLostMessage)
	}
}

// TestHostLossReplay replays the recorded moved session.
func TestHostLossReplay(t *testing.T) {
	replayHistory(t, hostLossHistory, hostLossReplayID)
}

func recordHostLossHistory(t *testing.T) {
	h, run, firstRun := hostLossRun(t, hostLossReplayID)
	h.result(run)
	testenv.WriteHistory(t, hostLossHistory, testenv.History(t, h.c, hostLossReplayID, firstRun))
}
