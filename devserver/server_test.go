package devserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/searchattr"
)

// TestRestartResumesOpenWorkflows is the reason the server persists to a
// file: a workflow left open when the process stops must carry on, with its
// search attributes, when a new server starts on the same state directory.
func TestRestartResumesOpenWorkflows(t *testing.T) {
	dir := t.TempDir()
	sessionKey := temporal.NewSearchAttributeKeyKeyword(searchattr.SessionID)

	s1 := startServer(t, Config{StateDir: dir})
	if _, err := os.Stat(filepath.Join(dir, dbFileName)); err != nil {
		t.Fatalf("database file: %v", err)
	}
	if info, ok := Running(dir); !ok || info.FrontendAddress != s1.FrontendAddress() {
		t.Fatalf("Running = %+v, %v; want the started server", info, ok)
	}
	c1, stop1 := dial(t, s1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	resp, err := c1.OperatorService().ListSearchAttributes(ctx,
		&operatorservice.ListSearchAttributesRequest{Namespace: s1.Namespace()})
	if err != nil {
		t.Fatalf("ListSearchAttributes: %v", err)
	}
	for name, want := range searchattr.Registered() {
		if got := resp.GetCustomAttributes()[name]; got != want {
			t.Errorf("search attribute %s has type %v, want %v", name, got, want)
		}
	}

	run, err := c1.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                    "restart-test",
		TaskQueue:             taskQueue,
		TypedSearchAttributes: temporal.NewSearchAttributes(sessionKey.ValueSet("session-1")),
	}, waitWorkflowID)
	if err != nil {
		t.Fatalf("ExecuteWorkflow: %v", err)
	}
	// Stop only once the worker has run the first workflow task, so what the
	// second server resumes is a workflow in progress, not a queued start.
	eventually(t, 30*time.Second, "first workflow task to complete", func() (bool, error) {
		d, err := c1.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
		return err == nil && d.GetWorkflowExecutionInfo().GetHistoryLength() >= 4, err
	})
	stop1()
	begin := time.Now()
	if err := s1.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	t.Logf("stop took %v", time.Since(begin).Round(time.Millisecond))
	if _, err := os.Stat(filepath.Join(dir, infoFileName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("server.json after Stop: %v, want it removed", err)
	}
	if info, ok := Running(dir); ok {
		t.Errorf("Running after Stop = %+v, want false", info)
	}

	begin = time.Now()
	s2 := startServer(t, Config{StateDir: dir})
	t.Logf("restart took %v", time.Since(begin).Round(time.Millisecond))
	c2, _ := dial(t, s2)

	// Visibility is written asynchronously, hence the polling.
	eventually(t, 30*time.Second, "workflow listed by session search attribute", func() (bool, error) {
		list, err := c2.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Namespace: s2.Namespace(),
			Query:     searchattr.SessionID + ` = "session-1" AND ExecutionStatus = "Running"`,
		})
		return err == nil && len(list.GetExecutions()) == 1, err
	})
	if err := c2.SignalWorkflow(ctx, run.GetID(), run.GetRunID(), signalName, "hello"); err != nil {
		t.Fatalf("SignalWorkflow: %v", err)
	}
	var result string
	if err := c2.GetWorkflow(ctx, run.GetID(), run.GetRunID()).Get(ctx, &result); err != nil {
		t.Fatalf("workflow result: %v", err)
	}
	if result != "got hello" {
		t.Fatalf("result = %q, want %q", result, "got hello")
	}
}

// TestCrashedServerResumes kills a server process with SIGKILL while a
// workflow is open, then starts a server on the same directory in this
// process: the database file alone must carry the workflow, and the lock and
// server.json the dead process left behind must not get in the way.
func TestCrashedServerResumes(t *testing.T) {
	dir := t.TempDir()
	cmd := helperProcess(helperServe, dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var ready, id, runID string
	if _, err := fmt.Fscanln(stdout, &ready, &id, &runID); err != nil || ready != "ready" {
		t.Fatalf("server process: %q %v", ready, err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	s := startServer(t, Config{StateDir: dir})
	c, _ := dial(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.SignalWorkflow(ctx, id, runID, signalName, "again"); err != nil {
		t.Fatalf("SignalWorkflow: %v", err)
	}
	var result string
	if err := c.GetWorkflow(ctx, id, runID).Get(ctx, &result); err != nil || result != "got again" {
		t.Fatalf("workflow result = %q, %v; want %q", result, err, "got again")
	}
}

// TestStartRejectsBusyPort checks that a taken port is reported as such and
// that the failed Start leaves the state directory free for the next one.
func TestStartRejectsBusyPort(t *testing.T) {
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port

	_, err = Start(context.Background(), Config{StateDir: dir, FrontendPort: port, Logger: testLogger(t)})
	if err == nil || !strings.Contains(err.Error(), "not available") {
		t.Fatalf("Start on busy port: %v, want a port-not-available error", err)
	}
	lock, err := lockStateDir(dir)
	if err != nil {
		t.Fatalf("state dir still locked after failed Start: %v", err)
	}
	_ = lock.release()
}

func TestStartRequiresAbsoluteStateDir(t *testing.T) {
	for _, dir := range []string{"", "relative/dir"} {
		if _, err := Start(context.Background(), Config{StateDir: dir}); err == nil {
			t.Errorf("Start(StateDir: %q) succeeded, want an error", dir)
		}
	}
}
