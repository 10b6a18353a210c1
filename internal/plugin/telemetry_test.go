package plugin_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

func block(id, name string, input map[string]any) tool.Block {
	b, err := json.Marshal(input)
	if err != nil {
		panic(err)
	}
	return tool.Block{ID: id, Name: name, Input: b}
}

// noEnv keeps the test's telemetry off whatever the environment running it says.
func noEnv(string) string { return "" }

// runTracedTurn runs one turn with real tools on a client with the given telemetry.
func runTracedTurn(t *testing.T, tel *plugin.Telemetry, blocks []tool.Block, settings *workflows.TurnSettings) workflows.TurnResult {
	t.Helper()
	opts, err := tel.ClientOptions(client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := testenv.Server().NewClientWithOptions(opts)
	t.Cleanup(c.Close)
	queue := testenv.TaskQueue(t)
	w, err := plugin.Start(plugin.Config{Client: c, TaskQueue: queue, StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	ctx := testenv.Context(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "traced-" + queue, TaskQueue: queue},
		contract.TurnWorkflowName, workflows.TurnInput{SessionID: "s-trace", Workdir: t.TempDir(), Blocks: blocks, CloseIntake: true, Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	var res workflows.TurnResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// A turn's spans form one tree, from the starter's StartWorkflow through the
// workflow and each activity down to a span per tool call that carries the call's
// facts; the tool metrics go through the SDK's metrics handler.
func TestTurnSpanTree(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	tel, err := plugin.NewTelemetry(context.Background(), plugin.TelemetryConfig{Getenv: noEnv, TracerProvider: tp, MeterProvider: mp})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := runTracedTurn(t, tel, []tool.Block{
		block("b1", tool.BashName, map[string]any{"command": "echo hi"}),
		block("r1", tool.ReadName, map[string]any{"file_path": file}),
		block("b2", tool.BashName, map[string]any{"command": "seq 1 20000; mkdir -p d; false"}),
		block("u1", "Nope", map[string]any{}),
	}, &workflows.TurnSettings{Hooks: hooks.Config{PreToolUse: []hooks.Group{{Matcher: "Read", Hooks: []hooks.Command{{Command: "true"}}}}}})
	if len(res.Results) != 4 {
		t.Fatalf("results: %+v", res.Results)
	}

	got := spans.GetSpans()
	byID := map[string]tracetest.SpanStub{}
	for _, s := range got {
		byID[s.SpanContext.SpanID().String()] = s
	}
	// chain walks from a span up to its root and names every span on the way.
	chain := func(s tracetest.SpanStub) string {
		names := []string{s.Name}
		for s.Parent.IsValid() {
			p, ok := byID[s.Parent.SpanID().String()]
			if !ok {
				names = append(names, "?")
				break
			}
			if p.SpanContext.TraceID() != s.SpanContext.TraceID() {
				t.Errorf("%s and its parent %s are in different traces", s.Name, p.Name)
			}
			names = append(names, p.Name)
			s = p
		}
		return strings.Join(names, " < ")
	}
	tools := map[string]tracetest.SpanStub{}
	var hookSpans []tracetest.SpanStub
	for _, s := range got {
		if strings.HasPrefix(s.Name, "execute_tool ") {
			tools[attr(s, contract.AttrToolCallID)] = s
		}
		if strings.HasPrefix(s.Name, "execute_hook ") {
			hookSpans = append(hookSpans, s)
		}
	}
	// Read's PreToolUse hook is an activity of its own: its span is a sibling of the
	// tool's, with the event, the call and how the command ended.
	if len(hookSpans) != 1 {
		t.Fatalf("%d hook spans, want 1", len(hookSpans))
	}
	if c := chain(hookSpans[0]); c != "execute_hook PreToolUse < RunActivity:toolpipe.RunHook < StartActivity:toolpipe.RunHook < RunWorkflow:toolpipe.Turn < StartWorkflow:toolpipe.Turn" {
		t.Errorf("hook span chain: %s", c)
	}
	if attr(hookSpans[0], contract.AttrToolCallID) != "r1" || attr(hookSpans[0], contract.AttrHookExitCode) != "0" || attr(hookSpans[0], contract.AttrHookDurationMs) == "" {
		t.Errorf("hook span attributes: %v", hookSpans[0].Attributes)
	}
	if len(tools) != 4 {
		t.Fatalf("tool spans for %v; want b1, r1, b2 and u1", keys(tools))
	}
	// An unknown tool runs no activity: the workflow records its span, failed.
	if c := chain(tools["u1"]); c != "execute_tool Nope < RunWorkflow:toolpipe.Turn < StartWorkflow:toolpipe.Turn" || tools["u1"].Status.Code != codes.Error {
		t.Errorf("u1: span chain %s, status %+v", c, tools["u1"].Status)
	}
	for id, name := range map[string]string{"b1": "Bash", "r1": "Read", "b2": "Bash"} {
		want := "execute_tool " + name + " < RunActivity:toolpipe." + name + " < StartActivity:toolpipe." + name + " < RunWorkflow:toolpipe.Turn < StartWorkflow:toolpipe.Turn"
		if c := chain(tools[id]); c != want {
			t.Errorf("%s: span chain\n %s\nwant\n %s", id, c, want)
		}
	}
	for id, want := range map[string]map[attribute.Key]string{
		"b1": {contract.AttrToolName: "Bash", contract.AttrConcurrentSafe: "true", contract.AttrIsError: "false", contract.AttrPersisted: "false", contract.AttrResultSize: "2",
			contract.AttrSummary: "Bash(echo hi)", contract.AttrExitCode: "0", contract.AttrErrorType: ""},
		"r1": {contract.AttrToolName: "Read", contract.AttrConcurrentSafe: "true", contract.AttrIsError: "false", contract.AttrSessionID: "s-trace", contract.AttrExitCode: ""},
		"b2": {contract.AttrConcurrentSafe: "false", contract.AttrIsError: "true", contract.AttrPersisted: "true", contract.AttrOutputSize: "108894", contract.AttrOperation: "execute_tool",
			contract.AttrExitCode: "1", contract.AttrErrorType: "tool_error", contract.AttrSummary: "Bash(seq 1 20000; mkdir -p d; false)"},
	} {
		for k, v := range want {
			if g := attr(tools[id], k); g != v {
				t.Errorf("%s: %s = %q, want %q", id, k, g, v)
			}
		}
	}

	// A failed call's span is marked failed, with the result's first line; a call
	// that succeeded is not.
	if st := tools["b2"].Status; st.Code != codes.Error || !strings.Contains(st.Description, "Exit code 1") {
		t.Errorf("b2 (exit 1): span status %+v, want Error with the exit code", st)
	}
	if st := tools["b1"].Status; st.Code == codes.Error {
		t.Errorf("b1 (exit 0): span status %+v", st)
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	sums := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if d, ok := m.Data.(metricdata.Sum[int64]); ok {
				for _, p := range d.DataPoints {
					sums[m.Name] += p.Value
				}
			}
		}
	}
	if sums[activities.MetricToolCalls] != 3 || sums[activities.MetricToolErrors] != 1 || sums[activities.MetricPersistedBytes] != 108894 {
		t.Errorf("tool metrics: %v", sums)
	}
}

func attr(s tracetest.SpanStub, k attribute.Key) string {
	for _, a := range s.Attributes {
		if a.Key == k {
			return a.Value.Emit()
		}
	}
	return ""
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TOOLPIPE_TRACE=FILE writes every span as a JSON line, for local debugging; with
// no OTEL_* variable set, nothing is exported.
func TestTelemetryFromEnvironment(t *testing.T) {
	off, err := plugin.NewTelemetry(context.Background(), plugin.TelemetryConfig{Getenv: noEnv})
	if err != nil || off.Tracing() {
		t.Fatalf("telemetry with an empty environment: tracing=%v err=%v", off.Tracing(), err)
	}
	file := filepath.Join(t.TempDir(), "spans.jsonl")
	env := map[string]string{plugin.TraceEnv: file}
	tel, err := plugin.NewTelemetry(context.Background(), plugin.TelemetryConfig{Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	runTracedTurn(t, tel, []tool.Block{block("b1", tool.BashName, map[string]any{"command": "echo hi"})}, nil)
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"Name":"execute_tool Bash"`) || !strings.Contains(string(b), `"Name":"RunWorkflow:toolpipe.Turn"`) {
		t.Errorf("trace file lacks the tool or workflow span:\n%.2000s", b)
	}

	for _, bad := range []map[string]string{
		{"OTEL_TRACES_EXPORTER": "zipkin"},
		{"OTEL_METRICS_EXPORTER": "prometheus"},
		{"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "carrier-pigeon"},
	} {
		if _, err := plugin.NewTelemetry(context.Background(), plugin.TelemetryConfig{Getenv: func(k string) string { return bad[k] }}); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
