package toolpipe

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"time"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/tool"
	tpworker "github.com/toolpipe/toolpipe/worker"
)

// Options configure toolpipe in a worker.
type Options struct {
	// StateDir holds conversations, persisted results and payloads; absolute.
	// Every worker and client of a task queue must share it (a shared volume on
	// a cluster).
	StateDir string
	// Tools are the program's own tools, registered beside the built-in ones.
	Tools []*Tool
	// Logger receives the activities' logs; nil means slog.Default().
	Logger *slog.Logger
	// Thresholds override tools' result thresholds by name, in characters.
	Thresholds map[string]int
	// ThresholdOverride, when set, is asked at every call for the tool's
	// threshold, over Thresholds (ok false: none), so that a configuration that
	// changes applies to the next call without a restart.
	ThresholdOverride func(tool string) (chars int, ok bool)
	// WebFetchAllowPrivate lets WebFetch reach loopback and private addresses.
	WebFetchAllowPrivate bool
	// WebFetchTimeout bounds one WebFetch; 0 means the default (30 s).
	WebFetchTimeout time.Duration
	// Model configures the model calls of sessions; nil reads ANTHROPIC_API_KEY and
	// ANTHROPIC_BASE_URL from the environment (and the secrets worker.HideSecrets
	// holds).
	Model *Model
	// MCPEnvAllow are the variables (names or patterns such as DOCS_*) that a
	// working directory's .mcp.json may expand with ${VAR}; a server referring to
	// any other is not started. None by default.
	MCPEnvAllow []string
	// ShutdownGrace is how long running tools may go on after the worker's Stop
	// before they are cancelled (their processes killed) and reported to their
	// turns as stopped by the shutdown; 0 means 10 s. The worker option
	// WorkerStopTimeout, when set, wins.
	ShutdownGrace time.Duration
	// WorkflowsOnly runs workflow tasks and queries but no tool: a worker that
	// answers queries about workflows whose own workers have gone, without taking
	// over their tools.
	WorkflowsOnly bool
	// OnSwept, when set, is called once the start's sweep of dead workers' tools
	// is over, with how many running calls it declared lost.
	OnSwept func(lost int)
}

// Model says how the worker reaches the Messages API.
type Model struct {
	APIKey string
	// BaseURL is any Anthropic-compatible endpoint; empty means Anthropic's.
	BaseURL string
	// HTTPClient, when set, makes the requests.
	HTTPClient *http.Client
}

// NewPlugin is toolpipe as a plugin of one Temporal worker (the SDK's
// worker.Plugin): add it to the worker's Options.Plugins, beside the program's own
// workflows, on the task queue clients start turns and sessions on.
//
//	p, err := toolpipe.NewPlugin(c, toolpipe.Options{StateDir: dir, Tools: tools})
//	w := worker.New(c, "my-agents", worker.Options{Plugins: []worker.Plugin{p}})
//
// It does everything a toolpipe worker needs. When the worker is created it adds
// the worker options the workflows and tools need (a deadlock timeout long enough
// to validate large inputs, heartbeats sent at least every half second so that
// cancellations reach tools promptly, eager activities for parallel tools,
// heartbeats that survive server blips), keeping the program's where they are at
// least as strict. When it starts it registers the workflows (Turn, Session) and
// activities (every built-in tool, the custom ones, hooks, MCP, the model call),
// records the running calls in the state directory so that a worker started after
// this one died declares them lost at once (side-effecting calls report that they
// may have partially run; safe ones are retried) instead of waiting for their
// heartbeat timeout, and sweeps the calls of workers that died before it. When it
// stops, the calls still running after the grace are cancelled and reported as
// stopped by the shutdown, and the MCP servers it started are stopped.
//
// c is the worker's client: the sweep and the shutdown reports go through it.
// Make one plugin per worker, with the same Tools on every worker of the queue.
func NewPlugin(c client.Client, opts Options) (sdkworker.Plugin, error) {
	if c == nil {
		return nil, errors.New("toolpipe: NewPlugin needs the worker's client")
	}
	if opts.StateDir == "" || !filepath.IsAbs(opts.StateDir) {
		return nil, errors.New("toolpipe: Options.StateDir must be an absolute directory")
	}
	for name, n := range opts.Thresholds {
		if n <= 0 {
			return nil, fmt.Errorf("toolpipe: Options.Thresholds[%q] is %d; give a positive number of characters", name, n)
		}
	}
	// The tools belong to this worker's options: its activities run them, its
	// workflows schedule them and its model calls offer them (the registry).
	var custom []tool.Tool
	for _, t := range opts.Tools {
		if t == nil {
			return nil, errors.New("toolpipe: Options.Tools holds a nil tool")
		}
		custom = append(custom, t.t)
	}
	agent := activities.AgentConfigFromEnv(opts.StateDir, nil)
	if m := opts.Model; m != nil {
		agent.APIKey, agent.BaseURL, agent.HTTPClient = m.APIKey, m.BaseURL, m.HTTPClient
	}
	agent.Logger = opts.Logger
	p, err := tpworker.NewPlugin(tpworker.Config{
		Client: c, StateDir: opts.StateDir, Logger: opts.Logger, MCPEnvAllow: opts.MCPEnvAllow,
		Overrides:            thresholds{fixed: opts.Thresholds, live: opts.ThresholdOverride},
		WebFetchAllowPrivate: opts.WebFetchAllowPrivate, WebFetchTimeout: opts.WebFetchTimeout,
		WorkflowsOnly: opts.WorkflowsOnly, ShutdownGrace: opts.ShutdownGrace, Swept: opts.OnSwept,
		Agent: &agent, Tools: custom,
	})
	if err != nil {
		return nil, fmt.Errorf("toolpipe: %w", err)
	}
	return p, nil
}

// thresholds are the per-tool overrides: the live ones first, then the fixed.
type thresholds struct {
	fixed map[string]int
	live  func(string) (int, bool)
}

// Override is the tool's threshold override, if any.
func (t thresholds) Override(name string) (int, bool) {
	if t.live != nil {
		if n, ok := t.live(name); ok {
			return n, true
		}
	}
	n, ok := t.fixed[name]
	return n, ok
}
