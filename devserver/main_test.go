package devserver

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// The test binary doubles as "another process" for the tests that need one:
// with helperEnv set it runs one of the helpers below instead of the tests.
const (
	helperEnv    = "DEVSERVER_TEST_HELPER"
	helperDirEnv = "DEVSERVER_TEST_DIR"

	helperHold  = "hold"  // lock a state dir like a server would
	helperServe = "serve" // run a server with an open workflow
)

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case helperHold:
		holdStateDir(os.Getenv(helperDirEnv))
	case helperServe:
		serveOpenWorkflow(os.Getenv(helperDirEnv))
	default:
		os.Exit(m.Run())
	}
}

// helperProcess returns a command running the test binary as helper mode on
// dir; it reports "ready ..." on its stdout, then waits to be killed.
func helperProcess(mode, dir string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperDirEnv+"="+dir)
	cmd.Stderr = os.Stderr
	return cmd
}

func helperFail(err error) {
	fmt.Fprintln(os.Stderr, "helper:", err)
	os.Exit(2)
}

// holdStateDir locks dir and advertises a listener as its frontend, like a
// server would, then blocks until killed.
func holdStateDir(dir string) {
	lock, err := lockStateDir(dir)
	if err != nil {
		helperFail(err)
	}
	defer lock.release()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		helperFail(err)
	}
	info := Info{PID: os.Getpid(), FrontendAddress: l.Addr().String(), Namespace: "default"}
	if err := writeInfo(dir, info); err != nil {
		helperFail(err)
	}
	fmt.Println("ready")
	for {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		_ = conn.Close()
	}
}

// serveOpenWorkflow starts a server on dir and a workflow waiting for a
// signal, reports the workflow's run once a worker has picked it up, and
// blocks until killed, so the test can crash it mid-flight.
func serveOpenWorkflow(dir string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	quiet := slog.New(slog.DiscardHandler)
	s, err := Start(ctx, Config{StateDir: dir, Logger: quiet})
	if err != nil {
		helperFail(err)
	}
	c, err := client.Dial(client.Options{HostPort: s.FrontendAddress(), Namespace: s.Namespace(), Logger: sdklog.NewStructuredLogger(quiet)})
	if err != nil {
		helperFail(err)
	}
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflowWithOptions(waitForSignal, workflow.RegisterOptions{Name: waitWorkflowID})
	if err := w.Start(); err != nil {
		helperFail(err)
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "crash-test", TaskQueue: taskQueue}, waitWorkflowID)
	if err != nil {
		helperFail(err)
	}
	for {
		d, err := c.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
		if err == nil && d.GetWorkflowExecutionInfo().GetHistoryLength() >= 4 {
			break
		}
		if ctx.Err() != nil {
			helperFail(fmt.Errorf("first workflow task never completed: %w", err))
		}
		time.Sleep(20 * time.Millisecond)
	}
	fmt.Println("ready", run.GetID(), run.GetRunID())
	select {}
}
