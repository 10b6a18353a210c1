package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/connect"
	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/persisted"
	tpworker "github.com/toolpipe/toolpipe/worker"
)

// env is what a command runs with: its configuration, a connection and, in embedded
// mode, the in-process workers of the workflows this process runs (queues.go).
type env struct {
	cfg  config.Config
	log  *slog.Logger
	conn *connect.Conn
	tel  *tpworker.Telemetry
	// api reads turns and sessions through the Go API: a closed one from its
	// history, never through a query that needs a worker (closed.go).
	api *toolpipe.Client
	// base is the configured task queue; cfg.TaskQueue is the one this process
	// starts workflows on (its own queue in embedded mode).
	base string
	// stderr is where notices about adopted queues go.
	stderr io.Writer
	// overrides are the thresholds of toolpipe.yaml, kept current as it changes;
	// every in-process worker shares them.
	overrides *config.Thresholds

	// following: this process follows a workflow that another starter process
	// runs (queues.go adopt), until it takes it over.
	following atomic.Bool

	mu      sync.Mutex
	closing bool
	served  map[string]servedQueue
}

// loadConfig validates the command's configuration; a bad value is bad input.
func loadConfig(cmd *cobra.Command) (config.Config, error) {
	file, _ := cmd.Flags().GetString("config")
	cfg, _, err := config.Load(cmd.Flags(), file)
	if err != nil {
		return cfg, badInputError{err}
	}
	for _, n := range cfg.Notices { // a workspace's files skipped, keys it may not set
		fmt.Fprintln(os.Stderr, "starter: notice:", n)
	}
	// The session names a directory of the state directory: what it cannot hold
	// ("a..b") is refused as the tool_use ids are (message.go).
	if err := persisted.ValidateName("session", cfg.Session); err != nil && cfg.Session != "" {
		return cfg, badInput("%v: a session must be usable as a directory name (no '/', '\\', '..' or NUL)", strings.TrimPrefix(err.Error(), "persist: "))
	}
	return cfg, nil
}

// setup connects as mode says and, when the server is embedded, runs a worker in
// this process so that a turn needs nothing else: on a task queue of its own for
// run and agent (queues.go), on the configured queue for dev.
func setup(ctx context.Context, cfg config.Config, mode connect.Mode) (*env, error) {
	return setupWorker(ctx, cfg, mode, true)
}

func setupWorker(ctx context.Context, cfg config.Config, mode connect.Mode, withWorker bool) (*env, error) {
	log := tpworker.NewLogger(os.Stderr, cfg.LogLevel, cfg.LogFormat)
	// Traces and metrics are off unless the OTEL_* variables or TOOLPIPE_TRACE ask.
	tel, err := tpworker.NewTelemetry(ctx, tpworker.TelemetryConfig{ServiceName: "toolpipe-starter"})
	if err != nil {
		return nil, badInputError{err}
	}
	conn, err := connect.Dial(ctx, connect.Options{
		StateDir: cfg.StateDir, Port: cfg.Port, UI: cfg.UI, UIPort: cfg.UIPort, Logger: log, Mode: mode, Telemetry: tel,
		BlobURL: cfg.BlobURL,
	})
	if err != nil {
		_ = tel.Shutdown(ctx)
		return nil, err
	}
	e := &env{cfg: cfg, log: log, conn: conn, tel: tel, base: cfg.TaskQueue, stderr: os.Stderr, served: map[string]servedQueue{},
		overrides: cfg.Overrides(log)}
	if conn.Embedded && withWorker {
		queue := cfg.TaskQueue
		if mode != connect.Embedded {
			queue = tpworker.ProcessQueue(cfg.TaskQueue)
		}
		if err := e.serveQueue(queue, nil); err != nil {
			conn.Close()
			_ = tel.Shutdown(ctx)
			return nil, err
		}
		e.cfg.TaskQueue = queue
	}
	e.api = e.client()
	return e, nil
}

// client is the Go API's client of this command: on the queue it starts work on,
// with the state directory, and, in embedded mode, knowing that the server has
// toolpipe's search attributes and that this process's worker takes its model
// from this environment (promptModel).
func (e *env) client() *toolpipe.Client {
	opts := []toolpipe.ClientOption{toolpipe.WithStateDir(e.cfg.StateDir), toolpipe.WithNamespace(e.conn.Namespace), toolpipe.WithLogger(e.log),
		toolpipe.WithQueryCheck(e.answerable)} // queues.go
	if e.conn.Embedded {
		opts = append(opts, toolpipe.WithSearchAttributes(true), toolpipe.WithPromptHookCheck(promptModel))
	}
	return toolpipe.NewClient(e.conn.Client, e.cfg.TaskQueue, opts...)
}

// connectOnly loads the command's configuration and connects as `run` does: the
// commands that only talk to a turn or session (status, interrupt, approve, agent
// send) share it.
func connectOnly(cmd *cobra.Command) (*env, error) {
	cfg, err := loadConfig(cmd)
	if err != nil {
		return nil, err
	}
	return setupWorker(cmd.Context(), cfg, connect.Auto, false)
}

// close stops the workers (running tools get their cancellation) and the server;
// another client of the state directory takes the server over.
func (e *env) close() {
	e.stopWorkers()
	e.conn.Close()
	// Spans still batched are flushed, within a bound: an unreachable collector must
	// not keep a finished command from exiting.
	ctx, cancel := context.WithTimeout(context.Background(), telemetryFlushTimeout)
	defer cancel()
	if err := e.tel.Shutdown(ctx); err != nil {
		e.log.Warn("telemetry: flushing at exit", "error", err)
	}
}

// telemetryFlushTimeout bounds the export of the last spans and metrics at exit.
const telemetryFlushTimeout = 5 * time.Second
