package reliability

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// TestEmbeddedServerRestartMidTurn stops the embedded server (SQLite in a state
// directory) while a tool of a turn runs and starts it again on the same directory
// and port. The worker and the client reconnect by themselves; the running tool's
// result reaches the new server and the queued side-effecting call then runs once.
func TestEmbeddedServerRestartMidTurn(t *testing.T) {
	state, work := t.TempDir(), t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	es := startEmbedded(t, ctx, state)
	c, quiet := es.c, es.log
	w, err := plugin.Start(plugin.Config{Client: c, TaskQueue: "restart", StateDir: state, Logger: quiet})
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
		contract.TurnWorkflowName, workflows.TurnInput{SessionID: "s", Workdir: work, CloseIntake: true, Blocks: []tool.Block{
			bash("r1", "echo started > started; cat gate"),
			bash("w1", "echo w1 >> count"),
		}})
	if err != nil {
		t.Fatal(err)
	}
	poll(t, "the tool to start", time.Minute, func() bool { _, err := os.Stat(filepath.Join(work, "started")); return err == nil })

	down := es.restart()
	t.Logf("server down for %v", down.Round(time.Millisecond))
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
