package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stdoutSpan is what TOOLPIPE_TRACE writes of a span (the OpenTelemetry stdout
// exporter's JSON), as far as the tests read it.
type stdoutSpan struct {
	Name        string
	SpanContext struct{ TraceID, SpanID string }
	Parent      struct{ TraceID, SpanID string }
	Status      struct{ Code, Description string }
}

func readSpans(t *testing.T, path string) []stdoutSpan {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []stdoutSpan
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var s stdoutSpan
		if err := dec.Decode(&s); err != nil {
			t.Fatalf("span file: %v", err)
		}
		out = append(out, s)
	}
	return out
}

// `starter run --stream` with tracing on writes one trace for the turn: its start,
// the AddBlocks, CloseIntake and Collect updates it sends and their handlers, the
// workflow, and a span per call, the unknown tool's included (failed).
func TestRunIsOneTrace(t *testing.T) {
	spansFile := filepath.Join(t.TempDir(), "spans.jsonl")
	cmd := starter(t, t.TempDir(), "run", "--stream", "--workdir", t.TempDir())
	cmd.Env = append(cmd.Env, "TOOLPIPE_TRACE="+spansFile)
	cmd.Stdin = strings.NewReader(toolUse("s1", "Bash", map[string]any{"command": "echo one"}) + "\n" +
		toolUse("s2", "Nope", map[string]any{}) + "\n")
	out, _ := output(t, "run --stream", cmd)
	if m := decode(t, out); len(m.Content) != 2 {
		t.Fatalf("results: %s", out)
	}
	spans := readSpans(t, spansFile)
	byName := map[string]stdoutSpan{}
	traces := map[string][]string{}
	for _, s := range spans {
		byName[s.Name] = s
		traces[s.SpanContext.TraceID] = append(traces[s.SpanContext.TraceID], s.Name)
	}
	if len(traces) != 1 {
		t.Errorf("%d traces, want the turn's one: %v", len(traces), traces)
	}
	for _, n := range []string{"starter run", "StartWorkflow:toolpipe.Turn", "RunWorkflow:toolpipe.Turn", "UpdateWorkflow:AddBlocks", "UpdateWorkflow:CloseIntake",
		"UpdateWorkflow:Collect", "HandleUpdate:Collect", "execute_tool Bash", "execute_tool Nope"} {
		if _, ok := byName[n]; !ok {
			t.Errorf("no %q span", n)
		}
	}
	if s := byName["execute_tool Nope"]; s.Status.Code != "Error" || !strings.Contains(s.Status.Description, "No such tool") {
		t.Errorf("unknown tool's span status: %+v", s.Status)
	}
}
