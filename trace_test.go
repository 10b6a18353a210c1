package toolpipe_test

import (
	"testing"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/internal/testenv"
)

// TestCustomToolIsTraced: with the telemetry on the program's client, a custom
// tool's call gets the execute_tool span a built-in's gets, under its activity.
func TestCustomToolIsTraced(t *testing.T) {
	_, c, spans := testenv.TracedClient(t)
	queue := testenv.TaskQueue(t)
	p, err := toolpipe.NewPlugin(c, toolpipe.Options{StateDir: t.TempDir(), Tools: []*toolpipe.Tool{stamp}})
	if err != nil {
		t.Fatal(err)
	}
	w := sdkworker.New(c, queue, sdkworker.Options{Plugins: []sdkworker.Plugin{p}})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx := testenv.Context(t)
	turn, err := toolpipe.NewClient(c, queue).StartTurn(ctx, []toolpipe.Block{{ID: "t1", Name: "Stamp", Input: raw(`{"text":"x"}`)}},
		toolpipe.TurnOptions{SessionID: "s4-" + t.Name(), Workdir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := turn.Result(ctx); err != nil {
		t.Fatal(err)
	}
	byID := map[string]tracetest.SpanStub{}
	for _, s := range spans.GetSpans() {
		byID[s.SpanContext.SpanID().String()] = s
	}
	for _, s := range spans.GetSpans() {
		if s.Name != "execute_tool Stamp" {
			continue
		}
		attrs := map[string]string{}
		for _, a := range s.Attributes {
			attrs[string(a.Key)] = a.Value.Emit()
		}
		if attrs["gen_ai.tool.name"] != "Stamp" || attrs["gen_ai.tool.call.id"] != "t1" {
			t.Errorf("span attributes %v", attrs)
		}
		if p, ok := byID[s.Parent.SpanID().String()]; !ok || p.Name != "RunActivity:Stamp" {
			t.Errorf("parent span %q", p.Name)
		}
		return
	}
	var names []string
	for _, s := range spans.GetSpans() {
		names = append(names, s.Name)
	}
	t.Fatalf("no execute_tool Stamp span among %v", names)
}
