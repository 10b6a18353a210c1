package worker

import (
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
)

// Config is what a toolpipe worker needs.
type Config struct {
	Client    client.Client
	TaskQueue string
	StateDir  string
	Logger    *slog.Logger
	// Overrides are per-tool persistence thresholds; nil means none.
	Overrides activities.Overrides
	// WebFetchAllowPrivate lets WebFetch reach loopback, private and link-local
	// addresses (webfetch-allow-private).
	WebFetchAllowPrivate bool
	// WebFetchTimeout bounds one WebFetch (webfetch-timeout); 0 means the default.
	WebFetchTimeout time.Duration
	// WorkflowsOnly runs workflow tasks (and queries) but no tool: for answering a
	// query about a workflow whose starter exited without resuming its tools.
	WorkflowsOnly bool
}

// shutdownGrace is how long running tools get to stop after SIGINT/SIGTERM: they
// receive their cancellation (Bash kills its process group) within it.
const shutdownGrace = 10 * time.Second

// Start starts a worker running turns and their tools; Stop it to shut down
// gracefully.
func Start(cfg Config) (sdkworker.Worker, error) {
	if cfg.Client == nil || cfg.TaskQueue == "" || cfg.StateDir == "" {
		return nil, fmt.Errorf("worker: Client, TaskQueue and StateDir are required")
	}
	acts, err := activities.New(activities.Config{StateDir: cfg.StateDir, Logger: cfg.Logger, Overrides: cfg.Overrides,
		WebFetch: activities.WebFetchConfig{AllowPrivate: cfg.WebFetchAllowPrivate, Timeout: cfg.WebFetchTimeout, Model: activities.WebFetchModelFromEnv()}})
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	opts := Options()
	opts.WorkerStopTimeout = shutdownGrace
	opts.LocalActivityWorkerOnly = cfg.WorkflowsOnly
	w := sdkworker.New(cfg.Client, cfg.TaskQueue, opts)
	Register(w, acts)
	if err := w.Start(); err != nil {
		_ = acts.Close()
		return nil, fmt.Errorf("worker: start: %w", err)
	}
	return closingWorker{Worker: w, acts: acts}, nil
}

// closingWorker closes the activities' MCP sessions once the worker has stopped, so
// the stdio MCP servers it started exit with it (after running calls were cancelled).
type closingWorker struct {
	sdkworker.Worker
	acts *activities.Activities
}

// Stop stops the worker, then its MCP servers.
func (w closingWorker) Stop() {
	w.Worker.Stop()
	_ = w.acts.Close()
}

// Run runs the worker until interruptCh, then closes its MCP servers.
func (w closingWorker) Run(interruptCh <-chan interface{}) error {
	err := w.Worker.Run(interruptCh)
	_ = w.acts.Close()
	return err
}
