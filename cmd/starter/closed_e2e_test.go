package main

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/server/common/metrics/metricstest"

	"github.com/toolpipe/toolpipe/devserver"
)

// queryCounter runs the embedded server of stateDir in the test, counting the
// QueryWorkflow requests its frontend serves; the starters the test runs attach to
// it (its server.json is in the state directory).
func queryCounter(t *testing.T, stateDir string) (queries func() int) {
	t.Helper()
	h := metricstest.NewCaptureHandler()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv, err := devserver.Start(ctx, devserver.Config{StateDir: stateDir, MetricsHandler: h,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	capture := h.StartCapture()
	t.Cleanup(func() { h.StopCapture(capture) })
	return func() int {
		n := 0
		for _, r := range capture.Snapshot()["service_requests"] {
			if r.Tags["operation"] == "QueryWorkflow" {
				n++
			}
		}
		return n
	}
}

// Re-running the README's first command attaches to the finished turn: its result
// comes from its history, with no query (the queue of the starter that ran it has
// no poller: a query would wait 10 s), and stderr says it had finished. The same
// for `starter status` of the turn, and for `agent status` and `starter status` of
// a finished session.
func TestRerunOfAFinishedTurnMakesNoQuery(t *testing.T) {
	root, state := repoRoot(t), t.TempDir()
	queries := queryCounter(t, state)
	run := func() ([]byte, string) {
		cmd := starter(t, state, "run", "--workdir", root, filepath.Join(root, "examples", "turn.json"))
		cmd.Dir = root
		return output(t, "run", cmd)
	}
	first, _ := run()
	before := queries()
	again, stderr := run()
	if n := queries() - before; n != 0 {
		t.Errorf("the re-run made %d QueryWorkflow requests, want none", n)
	}
	if !bytes.Equal(first, again) {
		t.Errorf("the re-run printed\n%s\nthe first run\n%s", again, first)
	}
	if !strings.Contains(stderr, "had already finished (completed at ") || !strings.Contains(stderr, "no tool ran again") {
		t.Errorf("stderr does not say the turn had finished:\n%s", stderr)
	}
	id := strings.Fields(stderr[strings.Index(stderr, "turn turn-"):])[1]

	before = queries()
	out, _ := output(t, "status", starter(t, state, "status", id))
	if !strings.Contains(string(out), id+" finished (completed at ") || !strings.Contains(string(out), "toolu_05  yielded (error)") {
		t.Errorf("status of the finished turn:\n%s", out)
	}
	if n := queries() - before; n != 0 {
		t.Errorf("status of the finished turn made %d QueryWorkflow requests, want none", n)
	}

	agent := starter(t, state, "agent", "--workdir", root, "--session", "demo",
		"--fake-model", filepath.Join(root, "examples", "agent-script.json"), "What is left to do in examples/project?")
	agent.Dir = root
	output(t, "agent", agent)
	before = queries()
	for _, args := range [][]string{{"agent", "status", "demo"}, {"status", "session-demo"}} {
		out, _ := output(t, strings.Join(args, " "), starter(t, state, args...))
		if !strings.Contains(string(out), "phase             done end_turn") || !strings.Contains(string(out), "model calls       3") || !strings.Contains(string(out), "turns             2") {
			t.Errorf("%s of the finished session:\n%s", strings.Join(args, " "), out)
		}
	}
	if n := queries() - before; n != 0 {
		t.Errorf("status of the finished session made %d QueryWorkflow requests, want none", n)
	}
}
