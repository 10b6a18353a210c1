package reliability

import (
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/toolpipe/toolpipe/devserver"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/tool"
	tpworker "github.com/toolpipe/toolpipe/worker"
	"github.com/toolpipe/toolpipe/workflows"
)

// TestEmbeddedServerRestartMidTurn stops the embedded server (SQLite in a state
// directory) while a tool of a turn runs and starts it again on the same directory
// and port. The worker and the client reconnect by themselves; the running tool's
// result reaches the new server and the queued side-effecting call then runs once.
func TestEmbeddedServerRestartMidTurn(t *testing.T) {
	state, work := t.TempDir(), t.TempDir()
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
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
	w, err := tpworker.Start(tpworker.Config{Client: c, TaskQueue: "restart", StateDir: state, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	// r1 (read-only) runs until the test writes to a FIFO, after the restart.
	gate := filepath.Join(work, "gate")
	if err := syscall.Mkfifo(gate, 0o600); err != nil {
		t.Fatal(err)
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "restart-mid-turn", TaskQueue: "restart"},
		workflows.TurnWorkflowName, workflows.TurnInput{SessionID: "s", Workdir: work, CloseIntake: true, Blocks: []tool.Block{
			bash("r1", "echo started > started; cat gate"),
			bash("w1", "echo w1 >> count"),
		}})
	if err != nil {
		t.Fatal(err)
	}
	poll(t, "the tool to start", time.Minute, func() bool { _, err := os.Stat(filepath.Join(work, "started")); return err == nil })

	begin := time.Now()
	if err := srv.Stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	srv, err = devserver.Start(ctx, devserver.Config{StateDir: state, FrontendPort: port, Logger: quiet, LogLevel: slog.LevelError})
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	t.Logf("server down for %v", time.Since(begin).Round(time.Millisecond))
	// Opening the FIFO for writing waits for the tool's reader.
	f, err := os.OpenFile(gate, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("after restart\n")
	f.Close()

	var res workflows.TurnResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatalf("turn after restart: %v", err)
	}
	if len(res.Results) != 2 || res.Results[0].IsError || res.Results[0].Content != "after restart" || res.Results[1].IsError {
		t.Fatalf("results: %+v", res.Results)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "count")); string(b) != "w1\n" {
		t.Fatalf("count is %q: the side-effecting call ran %d times", b, len(b)/3)
	}
}
