package devserver

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

const (
	taskQueue      = "devserver-test"
	signalName     = "go"
	waitWorkflowID = "WaitForSignal"
)

// waitForSignal is the trivial workflow the tests park on the server: it
// stays open until signalled, which is what must survive a restart.
func waitForSignal(ctx workflow.Context) (string, error) {
	var v string
	workflow.GetSignalChannel(ctx, signalName).Receive(ctx, &v)
	return "got " + v, nil
}

// testLogger returns a logger that writes to t.Log until the test's
// cleanups are done. Server goroutines can outlive a test by a moment, and
// t.Log after the test has finished panics.
func testLogger(t *testing.T) *slog.Logger {
	w := &tWriter{t: t}
	t.Cleanup(w.close) // registered first, so it runs last
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type tWriter struct {
	mu     sync.Mutex
	t      *testing.T
	closed bool
}

func (w *tWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.t.Helper()
		w.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

func (w *tWriter) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
}

// startServer starts a server on dir and registers its Stop as a cleanup;
// it logs how long the start took, which the package's report quotes.
func startServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = testLogger(t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	begin := time.Now()
	s, err := Start(ctx, cfg)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Logf("server started in %v at %s (UI %q)", time.Since(begin).Round(time.Millisecond), s.FrontendAddress(), s.UIAddress())
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	return s
}

// dial connects an SDK client to s and runs a worker for waitForSignal. The
// returned function stops both; it is also registered as a cleanup, which
// runs before the server's so the worker never polls a stopped server.
func dial(t *testing.T, s *Server) (client.Client, func()) {
	t.Helper()
	c, err := client.Dial(client.Options{
		HostPort:  s.FrontendAddress(),
		Namespace: s.Namespace(),
		Logger:    sdklog.NewStructuredLogger(testLogger(t)),
	})
	if err != nil {
		t.Fatalf("dial %s: %v", s.FrontendAddress(), err)
	}
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflowWithOptions(waitForSignal, workflow.RegisterOptions{Name: waitWorkflowID})
	if err := w.Start(); err != nil {
		c.Close()
		t.Fatalf("start worker: %v", err)
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			w.Stop()
			c.Close()
		})
	}
	t.Cleanup(stop)
	return c, stop
}

// eventually polls cond until it holds or the deadline passes; the server is
// eventually consistent in places (visibility), so tests must not expect
// an immediate answer, nor sleep for a guessed duration.
func eventually(t *testing.T, timeout time.Duration, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var lastErr error
	for {
		ok, err := cond()
		if ok {
			return
		}
		lastErr = err
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s (last error: %v)", timeout, what, lastErr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
