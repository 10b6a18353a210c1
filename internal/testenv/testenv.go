// Package testenv gives tests a real Temporal server (temporaltest, in memory) shared
// by a test binary, and workers on task queues of their own, so tests exercise the
// real server instead of mocks.
package testenv

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"

	"github.com/toolpipe/toolpipe/persistence"
	tpworker "github.com/toolpipe/toolpipe/worker"
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
	w := sdkworker.New(c, queue, tpworker.Options())
	register(w)
	if err := w.Start(); err != nil {
		t.Fatalf("start worker: %v", err)
	}
	t.Cleanup(w.Stop)
	return w
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
