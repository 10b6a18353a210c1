package reliability

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/devserver"

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

// TestResultOutlivesALongOutage: a tool that ends while the server is away for
// longer than the SDK gives the report of a result (one 10 s RPC timeout) still
// delivers it once the server is back, as long as the server itself still waits for
// it (the heartbeat timeout). Before, the worker dropped the result and the server
// then failed the attempt as lost: an embedded server taken over by another client
// under load, or a cluster's frontend restarting, cost the tool's work.
func TestResultOutlivesALongOutage(t *testing.T) {
	const outage = 14 * time.Second // longer than the SDK's report budget
	state, work := t.TempDir(), t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	es := startEmbedded(t, ctx, state)
	e := &env{t: t, c: es.c, queue: "outage", state: state}
	worker := e.startWorkerProcessAt(es.srv.FrontendAddress(), es.srv.Namespace())

	release, finished := filepath.Join(work, "release"), filepath.Join(work, "finished")
	cmd := fmt.Sprintf("echo ran >> count; touch started; while [ ! -e %s ]; do sleep 0.1; done; touch %s; echo done", release, finished)
	run, err := es.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "outage", TaskQueue: e.queue},
		contract.TurnWorkflowName, workflows.TurnInput{SessionID: "s", Workdir: work, CloseIntake: true,
			Blocks: []tool.Block{bash("b", cmd)}, Options: workflows.TurnOptions{HeartbeatTimeout: 45 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	poll(t, "the tool to start", time.Minute, func() bool {
		_, err := os.Stat(filepath.Join(work, "started"))
		return err == nil
	})
	if err := es.srv.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(release, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	poll(t, "the tool to finish while the server is away", time.Minute, func() bool {
		_, err := os.Stat(finished)
		return err == nil
	})
	cpu0 := cpuTime(t, worker.cmd.Process.Pid)
	time.Sleep(outage) // the outage itself, not a wait for an event
	// Holding the result is waiting, not work (a spin on the SDK's cancelled
	// context burned a core for the whole outage).
	if used := cpuTime(t, worker.cmd.Process.Pid) - cpu0; used > outage/4 {
		t.Errorf("the worker used %v of CPU while it held the result through a %v outage", used, outage)
	} else {
		t.Logf("the worker used %v of CPU during the %v outage", used, outage)
	}
	srv, err := devserver.Start(ctx, devserver.Config{StateDir: state, FrontendPort: es.port, Logger: es.log, LogLevel: slog.LevelError})
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	es.srv = srv
	var res workflows.TurnResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 1 || res.Results[0].IsError || res.Results[0].Content != "done" {
		t.Errorf("after a %v outage: %+v, want the tool's own result", outage, res.Results)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "count")); strings.Count(string(b), "ran") != 1 {
		t.Errorf("the tool ran %d times", strings.Count(string(b), "ran"))
	}
}

// cpuTime is the user and system CPU time process pid has used (/proc/PID/stat).
func cpuTime(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:])) // after the command name
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond // clock ticks of 1/100 s
}
