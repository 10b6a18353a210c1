package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/internal/config"
	tpworker "github.com/toolpipe/toolpipe/worker"
)

// env is what a command runs with: its configuration, a connection and, in embedded
// mode, an in-process worker.
type env struct {
	cfg    config.Config
	log    *slog.Logger
	conn   *tpworker.Conn
	worker sdkworker.Worker
	tel    *tpworker.Telemetry
}

// loadConfig validates the command's configuration; a bad value is bad input.
func loadConfig(cmd *cobra.Command) (config.Config, error) {
	file, _ := cmd.Flags().GetString("config")
	cfg, _, err := config.Load(cmd.Flags(), file)
	if err != nil {
		return cfg, badInputError{err}
	}
	return cfg, nil
}

// newLogger logs to stderr at the configured level.
func newLogger(level string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level)) // validated by config
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l}))
}

// setup connects as mode says and, when the server is embedded, runs a worker in
// this process so that a turn needs nothing else.
func setup(ctx context.Context, cfg config.Config, mode tpworker.Mode) (*env, error) {
	log := newLogger(cfg.LogLevel)
	// Traces and metrics are off unless the OTEL_* variables or TOOLPIPE_TRACE ask.
	tel, err := tpworker.NewTelemetry(ctx, tpworker.TelemetryConfig{ServiceName: "toolpipe-starter"})
	if err != nil {
		return nil, badInputError{err}
	}
	conn, err := tpworker.Connect(ctx, tpworker.ConnectOptions{
		StateDir: cfg.StateDir, Port: cfg.Port, UI: cfg.UI, UIPort: cfg.UIPort, Logger: log, Mode: mode, Telemetry: tel,
	})
	if err != nil {
		_ = tel.Shutdown(ctx)
		return nil, err
	}
	e := &env{cfg: cfg, log: log, conn: conn, tel: tel}
	if conn.Embedded {
		w, err := tpworker.Start(tpworker.Config{Client: conn.Client, TaskQueue: cfg.TaskQueue, StateDir: cfg.StateDir, Logger: log,
			WebFetchAllowPrivate: cfg.WebFetchAllowPrivate, WebFetchTimeout: cfg.WebFetchTimeout, Overrides: cfg.Overrides(log)})
		if err != nil {
			conn.Close()
			_ = tel.Shutdown(ctx)
			return nil, fmt.Errorf("in-process worker: %w", err)
		}
		e.worker = w
	}
	return e, nil
}

// connect loads the command's configuration and connects as `run` does: the
// commands that only talk to a turn or session (status, interrupt, approve, agent
// send) share it.
func connect(cmd *cobra.Command) (*env, error) {
	cfg, err := loadConfig(cmd)
	if err != nil {
		return nil, err
	}
	return setup(cmd.Context(), cfg, tpworker.Auto)
}

// close stops the worker (running tools get their cancellation) and the server.
func (e *env) close() {
	if e.worker != nil {
		e.worker.Stop()
	}
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
