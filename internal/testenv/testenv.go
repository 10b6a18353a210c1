// Package testenv gives tests a real Temporal server (temporaltest, in memory) shared
// by a test binary, and workers on task queues of their own, so tests exercise the
// real server instead of mocks.
package testenv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/persistence"
)

var (
	once   sync.Once
	server *temporaltest.TestServer
	queues atomic.Int64
)

// Server returns the shared in-memory server, starting it on first use.
func Server() *temporaltest.TestServer {
	once.Do(func() { server = temporaltest.NewServer() })
	return server
}

// Client returns a client of the shared server.
func Client() client.Client { return Server().GetDefaultClient() }

// StorageClient returns a client of the shared server that keeps large payloads in
// dir, as toolpipe's clients and workers do.
func StorageClient(t testing.TB, dir string) client.Client {
	d, err := persistence.NewPayloadDriver(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := Server().NewClientWithOptions(client.Options{ExternalStorage: d.ExternalStorage()})
	t.Cleanup(c.Close)
	return c
}

// StartWorkerWith runs a worker of client c, as StartWorker does.
func StartWorkerWith(t testing.TB, c client.Client, queue string, register func(sdkworker.Registry)) sdkworker.Worker {
	t.Helper()
	w := sdkworker.New(c, queue, plugin.Options())
	register(w)
	if err := w.Start(); err != nil {
		t.Fatalf("start worker: %v", err)
	}
	t.Cleanup(w.Stop)
	return w
}

// TracedClient returns a client of the shared server with toolpipe's telemetry on
// (whatever the environment says, so a developer's OTEL_* settings change no test),
// its spans going to the returned in-memory exporter, and the telemetry itself; the
// client closes when the test ends.
func TracedClient(t testing.TB) (*plugin.Telemetry, client.Client, *tracetest.InMemoryExporter) {
	t.Helper()
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	tel, err := plugin.NewTelemetry(context.Background(), plugin.TelemetryConfig{
		Getenv: func(string) string { return "" }, TracerProvider: tp})
	if err != nil {
		t.Fatal(err)
	}
	opts, err := tel.ClientOptions(client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := Server().NewClientWithOptions(opts)
	t.Cleanup(c.Close)
	return tel, c, spans
}

// TaskQueue returns a task queue no other test uses.
func TaskQueue(t testing.TB) string {
	return fmt.Sprintf("%s-%d", t.Name(), queues.Add(1))
}

// StartWorker runs a worker with toolpipe's worker options on queue until the test
// ends; register adds what it runs.
func StartWorker(t testing.TB, queue string, register func(sdkworker.Registry)) sdkworker.Worker {
	t.Helper()
	return StartWorkerWith(t, Client(), queue, register)
}

// Context is a context for one client call in a test, bounded so a bug hangs no
// test for long.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// History fetches a workflow's whole history through c.
func History(t testing.TB, c client.Client, id, runID string) []*historypb.HistoryEvent {
	t.Helper()
	iter := c.GetWorkflowHistory(Context(t), id, runID, false, 0)
	var events []*historypb.HistoryEvent
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatalf("history of %s: %v", id, err)
		}
		events = append(events, ev)
	}
	return events
}

// WriteHistory saves events as the JSON a WorkflowReplayer reads, for replay tests.
func WriteHistory(t testing.TB, path string, events []*historypb.HistoryEvent) {
	t.Helper()
	b, err := protojson.MarshalOptions{Indent: "  "}.Marshal(&historypb.History{Events: events})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %d events to %s", len(events), path)
}
