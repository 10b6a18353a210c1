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
	acts, err := activities.New(activities.Config{StateDir: cfg.StateDir, Logger: cfg.Logger, Overrides: cfg.Overrides})
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	opts := Options()
	opts.WorkerStopTimeout = shutdownGrace
	w := sdkworker.New(cfg.Client, cfg.TaskQueue, opts)
	Register(w, acts)
	if err := w.Start(); err != nil {
		return nil, fmt.Errorf("worker: start: %w", err)
	}
	return w, nil
}
