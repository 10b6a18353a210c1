package toolpipe

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"sync"

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
	// WebFetchAllowPrivate lets WebFetch reach loopback and private addresses.
	WebFetchAllowPrivate bool
	// Model configures the model calls of sessions; nil reads ANTHROPIC_API_KEY and
	// ANTHROPIC_BASE_URL from the environment (and the secrets worker.HideSecrets
	// holds).
	Model *Model
	// MCPEnvAllow are the variables (names or patterns such as DOCS_*) that a
	// working directory's .mcp.json may expand with ${VAR}; a server referring to
	// any other is not started. None by default.
	MCPEnvAllow []string
}

// Model says how the worker reaches the Messages API.
type Model struct {
	APIKey string
	// BaseURL is any Anthropic-compatible endpoint; empty means Anthropic's.
	BaseURL string
	// HTTPClient, when set, makes the requests.
	HTTPClient *http.Client
}

// Registration is toolpipe on a worker; Close it after the worker stopped.
type Registration struct {
	acts *activities.Activities
}

// Close closes the MCP servers the activities started.
func (r *Registration) Close() error { return r.acts.Close() }

// Register registers toolpipe's workflows (Turn, Session) and activities (every
// tool, hooks, the model call) on w, whose task queue is the one clients start turns
// and sessions on, with the built-in tools and opts.Tools: they are this worker's,
// and two workers of one process may have different ones. Call it before w.Start,
// with the same Tools in every worker of the task queue.
func Register(w sdkworker.Registry, opts Options) (*Registration, error) {
	if opts.StateDir == "" || !filepath.IsAbs(opts.StateDir) {
		return nil, errors.New("toolpipe: Options.StateDir must be an absolute directory")
	}
	for name, n := range opts.Thresholds {
		if n <= 0 {
			return nil, fmt.Errorf("toolpipe: Options.Thresholds[%q] is %d; give a positive number of characters", name, n)
		}
	}
	if _, again := registered.Load(w); again {
		return nil, errors.New("toolpipe: Register was already called on this worker; call it once, with all the worker's tools in Options.Tools")
	}
	var custom []tool.Tool
	for _, t := range opts.Tools {
		if t == nil {
			return nil, errors.New("toolpipe: Options.Tools holds a nil tool")
		}
		custom = append(custom, t.t)
	}
	// The tools belong to this worker's options: its activities run them, its
	// workflows schedule them (RegisterWithAgent hands the registry over).
	acts, err := activities.New(activities.Config{StateDir: opts.StateDir, Logger: opts.Logger, MCPEnvAllow: opts.MCPEnvAllow,
		Overrides: thresholds(opts.Thresholds), Tools: custom,
		WebFetch: activities.WebFetchConfig{AllowPrivate: opts.WebFetchAllowPrivate, Model: activities.WebFetchModelFromEnv()}})
	if err != nil {
		return nil, fmt.Errorf("toolpipe: %w", err)
	}
	agent := activities.AgentConfigFromEnv(opts.StateDir, nil)
	if m := opts.Model; m != nil {
		agent.APIKey, agent.BaseURL, agent.HTTPClient = m.APIKey, m.BaseURL, m.HTTPClient
	}
	agent.Logger = opts.Logger
	if _, again := registered.LoadOrStore(w, true); again { // two Registers at once
		_ = acts.Close()
		return nil, errors.New("toolpipe: Register was already called on this worker; call it once, with all the worker's tools in Options.Tools")
	}
	tpworker.RegisterWithAgent(w, acts, agent)
	return &Registration{acts: acts}, nil
}

// registered are the workers Register was called on: a second call would register
// the workflows again (a panic in the SDK) with perhaps other tools. It holds no
// tools; each worker's are its own (activities.Activities.Registry).
var registered sync.Map

// thresholds are fixed per-tool overrides.
type thresholds map[string]int

func (t thresholds) Override(name string) (int, bool) { n, ok := t[name]; return n, ok }

// WorkerOptions returns o with what toolpipe's workflows and tools need (see
// worker.Options): a deadlock timeout long enough to validate large inputs,
// heartbeats sent at least every half second so cancellations reach tools promptly,
// eager activities for parallel tools, and heartbeats that survive server blips.
// Settings o already has are kept where they are at least as strict.
func WorkerOptions(o sdkworker.Options) sdkworker.Options {
	need := tpworker.Options()
	o.DeadlockDetectionTimeout = max(o.DeadlockDetectionTimeout, need.DeadlockDetectionTimeout)
	if o.MaxHeartbeatThrottleInterval == 0 || o.MaxHeartbeatThrottleInterval > need.MaxHeartbeatThrottleInterval {
		o.MaxHeartbeatThrottleInterval = need.MaxHeartbeatThrottleInterval
	}
	if o.DefaultHeartbeatThrottleInterval == 0 || o.DefaultHeartbeatThrottleInterval > need.DefaultHeartbeatThrottleInterval {
		o.DefaultHeartbeatThrottleInterval = need.DefaultHeartbeatThrottleInterval
	}
	if o.MaxEagerActivityReservationsPerWorkflowTask == nil {
		o.MaxEagerActivityReservationsPerWorkflowTask = need.MaxEagerActivityReservationsPerWorkflowTask
	}
	if o.StickyScheduleToStartTimeout == 0 {
		o.StickyScheduleToStartTimeout = need.StickyScheduleToStartTimeout
	}
	o.Interceptors = append(o.Interceptors, need.Interceptors...)
	return o
}
