package reliability

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// TestToolsOutliveServerRestarts restarts the embedded server (SQLite, same state
// directory and port) five times while six tools run on two worker processes. The
// SDK cancels an activity whose heartbeat RPC fails once; toolpipe's workers only
// stop a tool when the server says so or the heartbeat timeout has really passed
// (worker/heartbeat.go). So no tool is killed, each runs once, and every result
// reaches the server when it is back.
func TestToolsOutliveServerRestarts(t *testing.T) {
	const restarts, tools = 5, 6
	state, work := t.TempDir(), t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	es := startEmbedded(t, ctx, state)
	c := es.c
	e := &env{t: t, c: c, queue: "blips", state: state}
	e.startWorkerProcessAt(es.srv.FrontendAddress(), es.srv.Namespace())
	e.startWorkerProcessAt(es.srv.FrontendAddress(), es.srv.Namespace())

	// Each tool counts its start, then waits for the release file the test writes
	// after the last restart.
	release := filepath.Join(work, "release")
	runs := make([]client.WorkflowRun, tools)
	var err error
	for i := range runs {
		cmd := fmt.Sprintf("echo ran >> count-%d; touch started-%d; while [ ! -e %s ]; do sleep 0.1; done; echo done-%d", i, i, release, i)
		runs[i], err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: fmt.Sprintf("blip-%d", i), TaskQueue: e.queue},
			contract.TurnWorkflowName, workflows.TurnInput{SessionID: "s", Workdir: work, CloseIntake: true,
				Blocks: []tool.Block{bash(fmt.Sprintf("b%d", i), cmd)}})
		if err != nil {
			t.Fatal(err)
		}
	}
	poll(t, "every tool to start", time.Minute, func() bool {
		for i := range tools {
			if _, err := os.Stat(filepath.Join(work, fmt.Sprintf("started-%d", i))); err != nil {
				return false
			}
		}
		return true
	})

	for r := range restarts {
		begin := time.Now()
		down := es.restart()
		t.Logf("restart %d: server down for %v", r+1, down.Round(time.Millisecond))
		// Heartbeats reach the new server before the next restart: each running
		// tool's last heartbeat is newer than the restart.
		poll(t, "heartbeats to reach the restarted server", time.Minute, func() bool {
			for _, run := range runs {
				desc, err := c.DescribeWorkflowExecution(ctx, run.GetID(), "")
				if err != nil || len(desc.PendingActivities) != 1 {
					return false
				}
				if hb := desc.PendingActivities[0].LastHeartbeatTime; hb == nil || hb.AsTime().Before(begin) {
					return false
				}
			}
			return true
		})
	}
	if err := os.WriteFile(release, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	killed := 0
	for i, run := range runs {
		var res workflows.TurnResult
		if err := run.Get(ctx, &res); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		want := fmt.Sprintf("done-%d", i)
		if len(res.Results) != 1 || res.Results[0].IsError || res.Results[0].Content != want {
			killed++
			t.Errorf("turn %d: %+v, want %q", i, res.Results, want)
		}
		if b, _ := os.ReadFile(filepath.Join(work, fmt.Sprintf("count-%d", i))); strings.Count(string(b), "ran") != 1 {
			t.Errorf("tool %d ran %d times", i, strings.Count(string(b), "ran"))
		}
	}
	t.Logf("%d restarts, %d tools on 2 worker processes: %d killed", restarts, tools, killed)
}
