package worker_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/mcptest"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	tpworker "github.com/toolpipe/toolpipe/worker"
	"github.com/toolpipe/toolpipe/workflows"
)

// The activity takes from the call what the turn knew of its tool (issue 25 item
// 6: each hop once) instead of looking the tool up again in the worker's registry,
// where an MCP tool is not: a read-only MCP tool's call, which the turn ran as
// concurrency-safe, said concurrent_safe false on its span before.
func TestCallCarriesWhatTheTurnKnewOfItsTool(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	tel, err := tpworker.NewTelemetry(context.Background(), tpworker.TelemetryConfig{Getenv: noEnv,
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))})
	if err != nil {
		t.Fatal(err)
	}
	opts, err := tel.ClientOptions(client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := testenv.Server().NewClientWithOptions(opts)
	t.Cleanup(c.Close)
	queue := testenv.TaskQueue(t)
	w, err := tpworker.Start(tpworker.Config{Client: c, TaskQueue: queue, StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	work := t.TempDir()
	mcptest.Config(t, work, map[string]any{"local": mcptest.Stdio(t, filepath.Join(work, "notes.txt"))})
	ctx := testenv.Context(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "declared-" + queue, TaskQueue: queue},
		workflows.TurnWorkflowName, workflows.TurnInput{SessionID: "s-declared", Workdir: work, MCP: true, CloseIntake: true,
			Blocks: []tool.Block{block("e1", "mcp__local__echo", map[string]any{"text": "hi"}), block("n1", "mcp__local__write_note", map[string]any{"text": "x"})}})
	if err != nil {
		t.Fatal(err)
	}
	var res workflows.TurnResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 2 || res.Results[0].IsError || !strings.Contains(res.Results[0].Content, "echo: hi") {
		t.Fatalf("results: %+v", res.Results)
	}
	got := map[string]string{}
	for _, s := range spans.GetSpans() {
		if strings.HasPrefix(s.Name, "execute_tool ") && attr(s, contract.AttrToolCallID) != "" {
			if _, ran := got[attr(s, contract.AttrToolCallID)]; !ran || s.Parent.IsValid() {
				got[attr(s, contract.AttrToolCallID)] = attr(s, contract.AttrConcurrentSafe)
			}
		}
	}
	if got["e1"] != "true" || got["n1"] != "false" {
		t.Fatalf("concurrent_safe by call: %v; want e1 (read-only echo) true and n1 (write_note) false", got)
	}
}
