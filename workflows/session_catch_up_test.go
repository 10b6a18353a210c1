package workflows_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

const catchUpHistory = "testdata/session_history_catch_up.json"

// catchUpSession is the recorded session, catchUpReplayID its workflow id.
const (
	catchUpSession  = "catch-up-recorded"
	catchUpReplayID = "session-" + catchUpSession
)

// hostOn is a fleet worker of host on state, its own state directory, which a
// restarted host keeps (its checkpoint cache with it).
func (h *agentHarness) hostOn(host, state string, store *blobstore.Store) sdkworker.Worker {
	h.t.Helper()
	h.t.Setenv("ANTHROPIC_API_KEY", testAPIKey)
	h.t.Setenv("ANTHROPIC_BASE_URL", h.fake.URL())
	w, err := plugin.Start(plugin.Config{Client: h.c, TaskQueue: h.queue, StateDir: state, Host: host, MaxSessions: 4, Blob: store})
	if err != nil {
		h.t.Fatal(err)
	}
	return w
}

// catchUp is a session whose runs go to hosts that share no disk: the hosts'
// disks are directories swapped in and out of the one working directory path.
type catchUp struct {
	h      *agentHarness
	store  *blobstore.Store
	states map[string]string
	disks  map[string]string // a stopped host's workspace, set aside
	on     string            // the host whose disk is at h.work
	worker sdkworker.Worker
	// session is the session's id; its runs have its workflow id, as the Go
	// API's (toolpipe.SessionWorkflowID).
	session string
}

func newCatchUp(t *testing.T, session string) *catchUp {
	h := newIdleAgentHarness(t,
		fakeanthropic.Response{When: "first", Content: []wire.Block{use("w1", "Write", map[string]any{"file_path": "one.txt", "content": "1\n"})}},
		fakeanthropic.Response{When: "one.txt", Content: []wire.Block{text("One.")}},
		fakeanthropic.Response{When: "second", Content: []wire.Block{use("w2", "Write", map[string]any{"file_path": "two.txt", "content": "2\n"})}},
		fakeanthropic.Response{When: "two.txt", Content: []wire.Block{text("Two.")}},
		fakeanthropic.Response{When: "third", Content: []wire.Block{use("b3", "Bash", map[string]any{"command": "cat one.txt two.txt && echo cat-done"})}},
		fakeanthropic.Response{When: "cat-done", Content: []wire.Block{text("Three.")}},
		fakeanthropic.Response{When: "fourth", Content: []wire.Block{text("Four.")}},
	)
	store, err := blobstore.Open(context.Background(), blobstore.Config{URL: "file://" + t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	c := &catchUp{h: h, store: store, states: map[string]string{}, disks: map[string]string{}, session: session}
	for _, host := range []string{"host-a", "host-b"} {
		c.states[host] = t.TempDir()
		c.disks[host] = filepath.Join(t.TempDir(), "disk")
	}
	return c
}

// serve makes host the fleet's only host: the one before stops and takes its disk
// with it, host's own disk (if it has one) comes back at the working directory.
func (c *catchUp) serve(host string) {
	c.h.t.Helper()
	if c.worker != nil {
		c.worker.Stop()
		if err := os.Rename(c.h.work, c.disks[c.on]); err != nil {
			c.h.t.Fatal(err)
		}
	}
	if _, err := os.Stat(c.disks[host]); err == nil {
		if err := os.Rename(c.disks[host], c.h.work); err != nil {
			c.h.t.Fatal(err)
		}
	}
	c.on, c.worker = host, c.h.hostOn(host, c.states[host], c.store)
	c.h.t.Cleanup(func() {
		if c.worker != nil {
			c.worker.Stop()
			c.worker = nil
		}
	})
}

// run runs one placed run of the session and returns its result.
func (c *catchUp) run(prompt string) (client.WorkflowRun, workflows.SessionResult) {
	c.h.t.Helper()
	run, err := c.h.c.ExecuteWorkflow(testenv.Context(c.h.t), client.StartWorkflowOptions{ID: toolpipe.SessionWorkflowID(c.session), TaskQueue: c.h.queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: c.session, Prompt: prompt, Workdir: c.h.work, Place: true, Options: fastOptions()})
	if err != nil {
		c.h.t.Fatal(err)
	}
	return run, c.h.result(run)
}

// catchUpRuns runs the session three times: on host A (writes one.txt), on host B,
// which has no workspace (gets one.txt, writes two.txt), and on host A again,
// whose disk still holds the workspace as the first run left it (gets two.txt).
func catchUpRuns(t *testing.T, session string) (*catchUp, client.WorkflowRun) {
	c := newCatchUp(t, session)
	c.serve("host-a")
	if _, res := c.run("first"); res.Text != "One." {
		t.Fatalf("run 1: %+v", res)
	}
	c.serve("host-b")
	if _, err := os.Stat(c.h.work); err == nil {
		t.Fatal("host B's disk holds a workspace before the session came to it")
	}
	if _, res := c.run("second"); res.Text != "Two." {
		t.Fatalf("run 2: %+v", res)
	}
	for name, want := range map[string]string{"one.txt": "1\n", "two.txt": "2\n"} {
		if b, err := os.ReadFile(filepath.Join(c.h.work, name)); err != nil || string(b) != want {
			t.Errorf("on host B after run 2: %s = %q %v, want %q", name, b, err, want)
		}
	}
	c.serve("host-a")
	if _, err := os.Stat(filepath.Join(c.h.work, "two.txt")); err == nil {
		t.Fatal("host A's disk has two.txt before the third run: the hosts' disks are not apart")
	}
	run, res := c.run("third")
	if res.Text != "Three." {
		t.Fatalf("run 3: %+v", res)
	}
	return c, run
}

// Issue 26: a session continued later on a host that does not hold its latest
// files gets them before its first turn, whether the host has no workspace or a
// stale one; on the host that left the workspace at the latest state, what a
// person changed there between runs stays.
func TestLaterRunCatchesUpOnAnotherHost(t *testing.T) {
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		defer recordCatchUpHistory(t)
	}
	c, run := catchUpRuns(t, "catcher-"+testenv.TaskQueue(t))
	// The third run's Bash read both files on host A: two.txt came from host B.
	saw := false
	for _, r := range c.h.fake.Requests() {
		saw = saw || strings.Contains(string(r.Body), `1\n2\ncat-done`)
	}
	if !saw {
		t.Error("the third run's Bash did not read one.txt and two.txt on host A")
	}
	if !strings.Contains(sessionNotices(t, c.h, run.GetID()), "host host-a did not hold the session's latest files") {
		t.Errorf("no notice of the restore on host A: %s", sessionNotices(t, c.h, run.GetID()))
	}
	// A person edits the workspace on host A between runs: the next run there keeps it.
	if err := os.WriteFile(filepath.Join(c.h.work, "mine.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fourth, res := c.run("fourth")
	if res.Text != "Four." {
		t.Fatalf("run 4: %+v", res)
	}
	if b, err := os.ReadFile(filepath.Join(c.h.work, "mine.txt")); err != nil || string(b) != "mine\n" {
		t.Errorf("the person's file on the host that had the latest state: %q %v", b, err)
	}
	if n := sessionNotices(t, c.h, fourth.GetID()); strings.Contains(n, "did not hold") {
		t.Errorf("run 4 restored on the host that left the workspace at its latest state: %s", n)
	}

	// The closed session's code is rewound through the Go API while only host B,
	// whose disk holds the workspace as run 2 left it, is up: the run serving the
	// rewind is placed, catches host B up to run 4's files first (so LATEST
	// brings those back, mine.txt with them) and restores on host B.
	c.serve("host-b")
	sess := toolpipe.NewClient(c.h.c, c.h.queue).Session(c.session)
	rw, err := sess.Rewind(testenv.Context(t), toolpipe.RewindOptions{To: 2, Scope: toolpipe.RewindCode})
	if err != nil || rw.Checkpoint == "" {
		t.Fatalf("rewind the code to before turn 2: %+v %v", rw, err)
	}
	if got := workspaceFiles(t, c.h.work); got != "one.txt" {
		t.Errorf("host B's workspace before turn 2: %s, want one.txt", got)
	}
	queues := map[string]bool{}
	for _, ev := range testenv.History(t, c.h.c, toolpipe.SessionWorkflowID(c.session), "") {
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == contract.RestoreCheckpointActivityName {
			queues[a.GetTaskQueue().GetName()] = true
		}
	}
	if want := contract.HostQueue(c.h.queue, "host-b"); len(queues) != 1 || !queues[want] {
		t.Errorf("the rewind's restores ran on queues %v, want host B's %s only", queues, want)
	}
	// Sent at once: the first rewind's run may still be ending (releasing its
	// host), and then serves this one too.
	if _, err := sess.Rewind(testenv.Context(t), toolpipe.RewindOptions{Latest: true, Scope: toolpipe.RewindCode}); err != nil {
		t.Fatal(err)
	}
	if got := workspaceFiles(t, c.h.work); got != "mine.txt one.txt two.txt" {
		t.Errorf("host B's workspace after LATEST: %s, want run 4's (mine.txt one.txt two.txt)", got)
	}
}

// workspaceFiles lists the names in dir, sorted, space-separated.
func workspaceFiles(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

// sessionNotices are the notices of a closed session run, from its events.
func sessionNotices(t *testing.T, h *agentHarness, id string) string {
	t.Helper()
	var evs workflows.EventsResponse
	v, err := h.c.QueryWorkflow(testenv.Context(t), id, "", contract.EventsQuery, 0)
	if err != nil || v.Get(&evs) != nil {
		t.Fatalf("events of %s: %v", id, err)
	}
	var b strings.Builder
	for _, ev := range evs.Events {
		if ev.Kind == workflows.EventNotice {
			b.WriteString(ev.Text + "\n")
		}
	}
	return b.String()
}

// TestCatchUpReplay replays the recorded third run (the restore on host A).
func TestCatchUpReplay(t *testing.T) {
	replayHistory(t, catchUpHistory, catchUpReplayID)
}

func recordCatchUpHistory(t *testing.T) {
	c, run := catchUpRuns(t, catchUpSession)
	testenv.WriteHistory(t, catchUpHistory, testenv.History(t, c.h.c, catchUpReplayID, run.GetRunID()))
}
