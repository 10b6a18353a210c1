package plugin_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"

	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/internal/proctest"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// A worker at info with log-format json writes one JSON object a line, among them
// a line when a turn starts and one when it ends, with the turn's workflow id, its
// tool count, outcome and duration.
func TestWorkerLogsTurnStartAndEnd(t *testing.T) {
	var out proctest.LockedBuffer
	logger := plugin.NewLogger(&out, "info", "json")
	c := testenv.Server().NewClientWithOptions(client.Options{Logger: log.NewStructuredLogger(logger)})
	t.Cleanup(c.Close)
	queue := testenv.TaskQueue(t)
	w, err := plugin.Start(plugin.Config{Client: c, TaskQueue: queue, StateDir: t.TempDir(), Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	ctx := testenv.Context(t)
	id := "logged-" + queue
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, contract.TurnWorkflowName,
		workflows.TurnInput{SessionID: "s-log", Workdir: t.TempDir(), CloseIntake: true, Blocks: []tool.Block{
			block("b1", tool.BashName, map[string]any{"command": "echo hi"}), block("b2", tool.BashName, map[string]any{"command": "false"}),
		}})
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	w.Stop()
	lines := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line is not JSON: %q: %v", line, err)
		}
		if rec["WorkflowID"] == id {
			lines[rec["msg"].(string)] = rec
		}
	}
	start, end := lines["turn started"], lines["turn ended"]
	if start == nil || end == nil {
		t.Fatalf("no turn started/ended lines for %s in:\n%s", id, out.String())
	}
	if start["level"] != "INFO" || start["tools"] != float64(2) || start["session"] != "s-log" {
		t.Errorf("start line %v", start)
	}
	if end["outcome"] != "done" || end["tools"] != float64(2) || end["tool_errors"] != float64(1) || end["duration"] == "" {
		t.Errorf("end line %v", end)
	}
}
