package reliability

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/toolpipe/toolpipe/devserver"
	"github.com/toolpipe/toolpipe/persistence"
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
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	srv, err := devserver.Start(ctx, devserver.Config{StateDir: state, Logger: quiet, LogLevel: slog.LevelError})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Stop() }()
	_, portText, _ := net.SplitHostPort(srv.FrontendAddress())
	port, _ := strconv.Atoi(portText)

	d, err := persistence.NewPayloadDriver(filepath.Join(state, "payloads"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.Dial(client.Options{HostPort: srv.FrontendAddress(), Namespace: srv.Namespace(),
		ExternalStorage: d.ExternalStorage(), Logger: sdklog.NewStructuredLogger(quiet)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	e := &env{t: t, c: c, queue: "blips", state: state}
	e.startWorkerProcessAt(srv.FrontendAddress(), srv.Namespace())
	e.startWorkerProcessAt(srv.FrontendAddress(), srv.Namespace())

	// Each tool counts its start, then waits for the release file the test writes
	// after the last restart.
	release := filepath.Join(work, "release")
	runs := make([]client.WorkflowRun, tools)
	for i := range runs {
		cmd := fmt.Sprintf("echo ran >> count-%d; touch started-%d; while [ ! -e %s ]; do sleep 0.1; done; echo done-%d", i, i, release, i)
		runs[i], err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: fmt.Sprintf("blip-%d", i), TaskQueue: e.queue},
			workflows.TurnWorkflowName, workflows.TurnInput{SessionID: "s", Workdir: work, CloseIntake: true,
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
		if err := srv.Stop(); err != nil {
			t.Fatalf("stop %d: %v", r, err)
		}
		srv, err = devserver.Start(ctx, devserver.Config{StateDir: state, FrontendPort: port, Logger: quiet, LogLevel: slog.LevelError})
		if err != nil {
			t.Fatalf("restart %d: %v", r, err)
		}
		t.Logf("restart %d: server down for %v", r+1, time.Since(begin).Round(time.Millisecond))
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
