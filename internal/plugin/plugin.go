package plugin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// PluginName is the plugin's name, as the worker reports it to the server.
const PluginName = "github.com/toolpipe/toolpipe"

// Config is what a worker of toolpipe needs. The plugin (NewPlugin) is the one
// set-up of such a worker: the Go API's toolpipe.NewPlugin, cmd/starter's
// in-process workers and cmd/worker all build one from a Config.
type Config struct {
	// Client is the worker's client: the lost-worker sweep and the report of tools
	// a shutdown stopped go through it. Required.
	Client client.Client
	// TaskQueue is the queue Start's worker polls; the plugin takes the queue of
	// the worker it is added to.
	TaskQueue string
	// StateDir is the state directory every worker and client of the queue shares;
	// absolute. Required.
	StateDir string
	Logger   *slog.Logger
	// Overrides are per-tool persistence thresholds, read at each call; nil: none.
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
	// cancelled and reported as ended by the shutdown; 0 means 10 s. A worker
	// option WorkerStopTimeout already set is kept.
	ShutdownGrace time.Duration
	// Swept, when set, is called once the start's sweep of dead workers' tools is
	// over, with how many it declared lost (lost.go).
	Swept func(lost int)
	// MCPEnvAllow are the variables .mcp.json's ${VAR} may expand (mcp-env-allow,
	// the user's own configuration); a server referring to any other is refused.
	MCPEnvAllow []string
	// Blob is the blob store every host shares (connect.Conn.Blob); nil is the
	// state directory alone.
	Blob *blobstore.Store
	// Host, when set, makes this worker one host of a fleet (placement.go): it also
	// polls the host's own queue (contract.HostQueue), where the tools of the
	// sessions placed on it go, and takes new sessions while it holds fewer than
	// MaxSessions (0: DefaultMaxSessions).
	Host        string
	MaxSessions int
	// MCP, when set, holds the MCP client sessions instead of a Manager of the
	// working directories' .mcp.json (cmd/toolpipe-claude adds --mcp-config's and
	// the Claude Agent SDK's servers); the worker closes it when it stops.
	MCP activities.MCPServers
	// Model, when set, is the model endpoint of every model user of the worker
	// (sessions' calls, prompt hooks, WebFetch's page model); nil reads it from
	// the environment (activities.ModelEndpointFromEnv).
	Model *activities.ModelEndpoint
	// Agent, when set, configures the model calls of sessions (Model, when set,
	// replaces its endpoint); nil reads the environment.
	Agent *activities.AgentConfig
	// LegacyNames registers the workflows and activities under the names an older
	// toolpipe used too (contract.Prefix), for the turns and sessions it started
	// that still run: toolpipe's own binaries set it; a program's worker, whose own
	// "Read" or "Session" would collide, need not.
	LegacyNames bool
	// Tools are the program's own tools (the Go API's toolpipe.Tool), beside the
	// built-in ones: the worker's registry, which its workflows schedule and its
	// model calls offer; other workers may have others.
	Tools []tool.Tool
}

// shutdownGrace is how long running tools get to stop after SIGINT/SIGTERM: they
// receive their cancellation (Bash kills its process group) within it.
const shutdownGrace = 10 * time.Second

// shutdownReportWait bounds how long Stop waits, after the SDK's grace, for the
// tools it cancelled to stop and report the shutdown.
const shutdownReportWait = shutdownReportTimeout + 5*time.Second

// Plugin is toolpipe on one Temporal worker, through the SDK's plugin mechanism:
// when the worker is created it adds the options toolpipe needs (Options) and the
// lost-worker interceptor, outermost; when it starts it registers the workflows
// and activities, takes its liveness directory and sweeps dead workers' tools
// while it already polls; when it stops, after the SDK's grace, it waits for the
// tools the shutdown stopped to report it, then closes the MCP servers. One plugin
// serves one worker; on a replayer it registers the workflows.
type Plugin struct {
	sdkworker.PluginBase
	cfg  Config
	acts *activities.Activities
	log  *slog.Logger

	queue atomic.Pointer[string] // the worker's task queue (ConfigureWorker)
	live  atomic.Pointer[liveness]

	// host is the worker of the host's own queue, on a fleet (Config.Host).
	host sdkworker.Worker

	mu        sync.Mutex
	key       string // the worker it serves, once started
	stopSweep context.CancelFunc
	swept     chan struct{}
}

var _ sdkworker.Plugin = (*Plugin)(nil)

// NewPlugin checks cfg and builds the activities; the error says what is wrong.
func NewPlugin(cfg Config) (*Plugin, error) {
	if cfg.Client == nil {
		return nil, errors.New("worker: Config.Client is required (the lost-worker sweep reports through it)")
	}
	if cfg.StateDir == "" || !filepath.IsAbs(cfg.StateDir) {
		return nil, fmt.Errorf("worker: Config.StateDir %q must be an absolute directory", cfg.StateDir)
	}
	acts, err := activities.New(activities.Config{StateDir: cfg.StateDir, Blob: cfg.Blob, Logger: cfg.Logger, Overrides: cfg.Overrides, MCPEnvAllow: cfg.MCPEnvAllow, MCP: cfg.MCP, Tools: cfg.Tools, LegacyNames: cfg.LegacyNames,
		WebFetch: activities.WebFetchConfig{AllowPrivate: cfg.WebFetchAllowPrivate, Timeout: cfg.WebFetchTimeout, Model: webFetchModel(cfg.Model)}})
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Plugin{cfg: cfg, acts: acts, log: log}, nil
}

// Name is PluginName.
func (p *Plugin) Name() string { return PluginName }

// ConfigureWorker adds what the workflows and tools need to the worker's options
// (MergeOptions) and the lost-worker interceptor, outermost so that it sees the
// SDK's own context and its shutdown cause.
func (p *Plugin) ConfigureWorker(_ context.Context, o sdkworker.PluginConfigureWorkerOptions) error {
	q := o.TaskQueue
	p.queue.Store(&q)
	*o.WorkerOptions = MergeOptions(*o.WorkerOptions)
	if o.WorkerOptions.WorkerStopTimeout == 0 {
		o.WorkerOptions.WorkerStopTimeout = shutdownGrace
		if p.cfg.ShutdownGrace > 0 {
			o.WorkerOptions.WorkerStopTimeout = p.cfg.ShutdownGrace
		}
	}
	if p.cfg.WorkflowsOnly {
		o.WorkerOptions.LocalActivityWorkerOnly = true
		return nil
	}
	o.WorkerOptions.Interceptors = append([]interceptor.WorkerInterceptor{&pluginLiveness{p: p}}, o.WorkerOptions.Interceptors...)
	return nil
}

// StartWorker registers the workflows and activities, takes the liveness
// directory, starts the worker and sweeps dead workers' tools while it polls: the
// failures name exact attempts (task tokens), so nothing this worker runs is hit.
func (p *Plugin) StartWorker(ctx context.Context, o sdkworker.PluginStartWorkerOptions, next func(context.Context, sdkworker.PluginStartWorkerOptions) error) error {
	p.mu.Lock()
	if p.key != "" {
		p.mu.Unlock()
		return errors.New("toolpipe: this plugin already serves another worker: make one plugin per worker (its liveness records and MCP servers are the worker's)")
	}
	p.key = o.WorkerInstanceKey
	p.mu.Unlock()
	r := registry{o}
	RegisterWithAgent(r, p.acts, p.agentConfig())
	queue := ""
	if q := p.queue.Load(); q != nil {
		queue = *q
	}
	var placer *placer
	if p.cfg.Host != "" && !p.cfg.WorkflowsOnly {
		placer = newPlacer(queue, p.cfg.Host, p.cfg.MaxSessions, p.cfg.Blob) // placement.go
		placer.register(r, p.cfg.LegacyNames)
	}
	if !p.cfg.WorkflowsOnly {
		live, err := openLiveness(p.cfg.StateDir, queue, p.cfg.Client, p.log)
		if err != nil {
			return err
		}
		p.live.Store(live) // nil: no file locks there (openLiveness warned)
	}
	if placer != nil {
		if err := p.startHost(placer); err != nil {
			if live := p.live.Swap(nil); live != nil {
				live.close()
			}
			return err
		}
	}
	if err := next(ctx, o); err != nil {
		if p.host != nil {
			p.host.Stop()
		}
		if live := p.live.Swap(nil); live != nil {
			live.close()
		}
		return err
	}
	p.sweep()
	return nil
}

// startHost runs the worker of the host's own queue: activities only (the
// workflows stay on the shared queue, where any host's worker takes their
// tasks), with the same activities, liveness and shutdown grace as the plugin's
// worker.
func (p *Plugin) startHost(placer *placer) error {
	opts := MergeOptions(sdkworker.Options{})
	opts.DisableWorkflowWorker = true
	opts.WorkerStopTimeout = shutdownGrace
	if p.cfg.ShutdownGrace > 0 {
		opts.WorkerStopTimeout = p.cfg.ShutdownGrace
	}
	// Beside the blip-proof heartbeats MergeOptions put there, not instead of them.
	opts.Interceptors = append([]interceptor.WorkerInterceptor{&pluginLiveness{p: p}}, opts.Interceptors...)
	host := sdkworker.New(p.cfg.Client, placer.queue, opts)
	p.acts.Register(host)
	placer.register(host, p.cfg.LegacyNames)
	if err := host.Start(); err != nil {
		return fmt.Errorf("worker: start the host queue %s: %w", placer.queue, err)
	}
	p.host = host
	return nil
}

// agentConfig is the model's configuration: the given one, else the environment's.
func (p *Plugin) agentConfig() activities.AgentConfig {
	a := activities.AgentConfigFromEnv(p.cfg.StateDir, nil)
	if p.cfg.Agent != nil {
		a = *p.cfg.Agent
	}
	if a.Logger == nil {
		a.Logger = p.cfg.Logger
	}
	if p.cfg.Model != nil {
		a.ModelEndpoint = *p.cfg.Model
	}
	return a
}

// webFetchModel is WebFetch's page model: the environment's small model on the
// worker's endpoint (m, when set).
func webFetchModel(m *activities.ModelEndpoint) activities.WebFetchModel {
	wf := activities.WebFetchModelFromEnv()
	if m != nil {
		wf.ModelEndpoint = *m
	}
	return wf
}

// sweep declares the running tools of dead workers lost, in the background.
func (p *Plugin) sweep() {
	p.swept = make(chan struct{})
	live := p.live.Load()
	if live == nil {
		close(p.swept)
		if p.cfg.Swept != nil {
			p.cfg.Swept(0)
		}
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.stopSweep = cancel
	go func() {
		defer close(p.swept)
		n := sweepLost(ctx, p.cfg.StateDir, p.cfg.Client, p.log)
		if n > 0 {
			p.log.Info("worker: declared the running tools of dead workers lost", "count", n)
		}
		if p.cfg.Swept != nil {
			p.cfg.Swept(n)
		}
	}()
}

// StopWorker stops the worker (the SDK's grace, then its tools are cancelled),
// gives the tools the shutdown stopped time to report it (lost.go), then closes
// the MCP sessions, so that the stdio servers the worker started exit with it.
func (p *Plugin) StopWorker(ctx context.Context, o sdkworker.PluginStopWorkerOptions, next func(context.Context, sdkworker.PluginStopWorkerOptions)) {
	if p.host != nil {
		p.host.Stop()
	}
	next(ctx, o)
	if p.stopSweep != nil {
		p.stopSweep()
	}
	if p.swept != nil {
		<-p.swept
	}
	if live := p.live.Load(); live != nil {
		done := make(chan struct{})
		go func() { live.count.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(shutdownReportWait):
		}
		live.close()
	}
	_ = p.acts.Close()
}

// ReplayWorkflow registers the workflows on a replayer, so that a replay test
// needs only the plugin.
func (p *Plugin) ReplayWorkflow(ctx context.Context, o sdkworker.PluginReplayWorkflowOptions, next func(context.Context, sdkworker.PluginReplayWorkflowOptions) error) error {
	w, err := workflows.New(p.acts.Registry())
	if err != nil {
		return err
	}
	w.Register(o.WorkflowReplayRegistry, true) // histories of either name replay
	return next(ctx, o)
}

// Close closes the MCP sessions of a plugin whose worker never started.
func (p *Plugin) Close() error { return p.acts.Close() }

// Start starts a new worker of cfg.TaskQueue with the plugin; Stop it to shut down
// gracefully.
func Start(cfg Config) (sdkworker.Worker, error) {
	if cfg.TaskQueue == "" {
		return nil, errors.New("worker: Config.TaskQueue is required")
	}
	p, err := NewPlugin(cfg)
	if err != nil {
		return nil, err
	}
	w := sdkworker.New(cfg.Client, cfg.TaskQueue, sdkworker.Options{Plugins: []sdkworker.Plugin{p}})
	if err := w.Start(); err != nil {
		_ = p.Close()
		return nil, fmt.Errorf("worker: start: %w", err)
	}
	return w, nil
}

// pluginLiveness is the liveness interceptor of the plugin's worker: it is added
// when the worker is created, and records attempts once StartWorker has taken the
// liveness directory (none before, and none where the file system has no locks).
type pluginLiveness struct {
	interceptor.WorkerInterceptorBase
	p *Plugin
}

func (i *pluginLiveness) InterceptActivity(ctx context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	if live := i.p.live.Load(); live != nil {
		return &livenessInbound{ActivityInboundInterceptorBase: interceptor.ActivityInboundInterceptorBase{Next: next}, l: live}
	}
	return next
}

// registry is the worker's registry, as the plugin is handed it, as an SDK Registry.
type registry struct {
	o sdkworker.PluginStartWorkerOptions
}

func (r registry) RegisterWorkflow(w any) {
	r.o.WorkerRegistry.RegisterWorkflowWithOptions(w, workflow.RegisterOptions{})
}
func (r registry) RegisterWorkflowWithOptions(w any, o workflow.RegisterOptions) {
	r.o.WorkerRegistry.RegisterWorkflowWithOptions(w, o)
}
func (r registry) RegisterDynamicWorkflow(w any, o workflow.DynamicRegisterOptions) {
	r.o.WorkerRegistry.RegisterDynamicWorkflow(w, o)
}
func (r registry) RegisterActivity(a any) {
	r.o.WorkerRegistry.RegisterActivityWithOptions(a, activity.RegisterOptions{})
}
func (r registry) RegisterActivityWithOptions(a any, o activity.RegisterOptions) {
	r.o.WorkerRegistry.RegisterActivityWithOptions(a, o)
}
func (r registry) RegisterDynamicActivity(a any, o activity.DynamicRegisterOptions) {
	r.o.WorkerRegistry.RegisterDynamicActivity(a, o)
}
func (r registry) RegisterNexusService(s *nexus.Service) { r.o.WorkerRegistry.RegisterNexusService(s) }
