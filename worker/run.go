package worker

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/internal/blobstore"
)

// Config is what a toolpipe worker needs.
type Config struct {
	Client    client.Client
	TaskQueue string
	StateDir  string
	// Blob is the blob store every host shares (Conn.Blob); nil is the state
	// directory alone.
	Blob   *blobstore.Store
	Logger *slog.Logger
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
	// ShutdownGrace is how long running tools may go on after Stop before they are
	// cancelled and reported as ended by the shutdown; 0 means 10 s.
	ShutdownGrace time.Duration
	// Swept, when set, is called once the start's sweep of dead workers' tools is
	// over, with how many it declared lost (lost.go).
	Swept func(lost int)
	// MCPEnvAllow are the variables .mcp.json's ${VAR} may expand (mcp-env-allow,
	// the user's own configuration); a server referring to any other is refused.
	MCPEnvAllow []string
	// Host, when set, makes this worker one host of a fleet (placement.go): it also
	// polls the host's own queue (contract.HostQueue), where the tools of the
	// sessions placed on it go, and takes new sessions while it holds fewer than
	// MaxSessions (0: DefaultMaxSessions).
	Host        string
	MaxSessions int
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
	acts, err := activities.New(activities.Config{StateDir: cfg.StateDir, Blob: cfg.Blob, Logger: cfg.Logger, Overrides: cfg.Overrides, MCPEnvAllow: cfg.MCPEnvAllow,
		WebFetch: activities.WebFetchConfig{AllowPrivate: cfg.WebFetchAllowPrivate, Timeout: cfg.WebFetchTimeout, Model: activities.WebFetchModelFromEnv()}})
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	opts := Options()
	opts.WorkerStopTimeout = shutdownGrace
	if cfg.ShutdownGrace > 0 {
		opts.WorkerStopTimeout = cfg.ShutdownGrace
	}
	opts.LocalActivityWorkerOnly = cfg.WorkflowsOnly
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	var live *liveness
	if !cfg.WorkflowsOnly {
		// Outermost, so that it sees the SDK's own context and its shutdown cause.
		if live, err = openLiveness(cfg.StateDir, cfg.TaskQueue, cfg.Client, log); err != nil {
			_ = acts.Close()
			return nil, err
		}
		if live != nil { // nil: no file locks there (openLiveness warned)
			opts.Interceptors = append([]interceptor.WorkerInterceptor{live.interceptor()}, opts.Interceptors...)
		}
	}
	w := sdkworker.New(cfg.Client, cfg.TaskQueue, opts)
	Register(w, acts)
	var host sdkworker.Worker
	if cfg.Host != "" && !cfg.WorkflowsOnly {
		p := newPlacer(cfg.TaskQueue, cfg.Host, cfg.MaxSessions)
		p.register(w)
		// The host's queue runs activities only: the workflows stay on the shared
		// queue, where any host's worker takes their tasks.
		hopts := opts
		hopts.DisableWorkflowWorker = true
		host = sdkworker.New(cfg.Client, p.queue, hopts)
		acts.Register(host)
		p.register(host)
		if err := host.Start(); err != nil {
			_ = acts.Close()
			if live != nil {
				live.close()
			}
			return nil, fmt.Errorf("worker: start the host queue %s: %w", p.queue, err)
		}
	}
	if err := w.Start(); err != nil {
		if host != nil {
			host.Stop()
		}
		_ = acts.Close()
		if live != nil {
			live.close()
		}
		return nil, fmt.Errorf("worker: start: %w", err)
	}
	cw := &closingWorker{Worker: w, host: host, acts: acts, live: live, swept: make(chan struct{})}
	if live == nil {
		close(cw.swept)
		if cfg.Swept != nil {
			cfg.Swept(0)
		}
		return cw, nil
	}
	// A dead worker's tools are declared lost while this one already polls: the
	// failures name exact attempts (task tokens), so nothing this worker runs is hit.
	ctx, cancel := context.WithCancel(context.Background())
	cw.stopSweep = cancel
	go func() {
		defer close(cw.swept)
		n := sweepLost(ctx, cfg.StateDir, cfg.Client, log)
		if n > 0 {
			log.Info("worker: declared the running tools of dead workers lost", "count", n)
		}
		if cfg.Swept != nil {
			cfg.Swept(n)
		}
	}()
	return cw, nil
}

// closingWorker closes the activities' MCP sessions once the worker has stopped, so
// the stdio MCP servers it started exit with it (after running calls were cancelled),
// and gives the tools stopped by the shutdown time to report it (lost.go).
type closingWorker struct {
	sdkworker.Worker
	host      sdkworker.Worker // the host queue's, on a fleet; nil otherwise
	acts      *activities.Activities
	live      *liveness
	stopSweep context.CancelFunc
	swept     chan struct{}
	finished  sync.Once
}

// shutdownReportWait bounds how long Stop waits, after the SDK's grace, for the
// tools it cancelled to stop and report the shutdown.
const shutdownReportWait = shutdownReportTimeout + 5*time.Second

// Stop stops the worker, then its MCP servers.
func (w *closingWorker) Stop() {
	if w.host != nil {
		w.host.Stop()
	}
	w.Worker.Stop()
	w.finish()
}

// Run runs the worker until interruptCh, then closes its MCP servers.
func (w *closingWorker) Run(interruptCh <-chan interface{}) error {
	err := w.Worker.Run(interruptCh)
	if w.host != nil {
		w.host.Stop()
	}
	w.finish()
	return err
}

func (w *closingWorker) finish() { w.finished.Do(w.finishOnce) }

func (w *closingWorker) finishOnce() {
	if w.live != nil {
		w.stopSweep()
		<-w.swept
		done := make(chan struct{})
		go func() { w.live.count.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(shutdownReportWait):
		}
		w.live.close()
	}
	_ = w.acts.Close()
}
