package activities

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/tool"
)

// TurnIntake hands streamed tool_use blocks to the Turn workflow that runs them, and
// Task blocks to the Session that runs them as sub-agents. Every method must be
// idempotent: a retried model call hands over the same blocks again.
type TurnIntake interface {
	// Deliver adds b to the turn; a block the turn already has counts as delivered.
	Deliver(ctx context.Context, turnID string, b tool.Block) error
	// Close says the assistant message has ended.
	Close(ctx context.Context, turnID string) error
	// DeliverTask hands a Task block to the session run that called the model
	// (sessionID, runID), for the turn turnID; a task it started already counts as
	// delivered.
	DeliverTask(ctx context.Context, sessionID, runID, turnID string, b tool.Block) error
	// OpenTurn has the session run (sessionID, runID) start the Turn turnID of the
	// model call now streaming, before its first block is delivered; a turn it has
	// started already counts as opened.
	OpenTurn(ctx context.Context, sessionID, runID, turnID string) error
}

// AgentConfig holds what the agent activities need. The API key lives only here, in
// the worker: it is never part of an activity's input, so never in history.
type AgentConfig struct {
	// StateDir holds the conversations and persisted results; absolute.
	StateDir string
	// Blob is the blob store the conversations are kept in (blob-url); nil is the
	// file:// store rooted at StateDir.
	Blob *blobstore.Store
	// ModelEndpoint is where the model calls go (ModelEndpointFromEnv).
	ModelEndpoint
	// Intake receives streamed tool_use blocks. Required.
	Intake TurnIntake
	// IdleTimeout is how long a stream may go without an event before the call is
	// abandoned and retried; zero means two minutes.
	IdleTimeout time.Duration
	// Logger receives the activities' logs; nil means slog.Default().
	Logger *slog.Logger
	// LegacyNames registers the activities under an older toolpipe's names too
	// (Config.LegacyNames).
	LegacyNames bool
	// Tools are the tools offered to the model: the worker's registry
	// (Activities.Registry); nil means the built-in ones.
	Tools *tool.Registry
}

// AgentConfigFromEnv reads the model's settings from the worker's environment:
// ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL and TOOLPIPE_MODEL_IDLE_TIMEOUT (a Go
// duration: how long a stream may stall; a value that does not parse is reported in
// the log and the default kept).
func AgentConfigFromEnv(stateDir string, intake TurnIntake) AgentConfig {
	cfg := AgentConfig{
		StateDir: stateDir, Intake: intake, ModelEndpoint: ModelEndpointFromEnv(),
	}
	if v := os.Getenv("TOOLPIPE_MODEL_IDLE_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			slog.Warn("TOOLPIPE_MODEL_IDLE_TIMEOUT is not a positive duration (such as 90s); keeping the default of 2m", "value", v)
		} else {
			cfg.IdleTimeout = d
		}
	}
	return cfg
}

// Agent holds the activities of agent sessions: the model call and the conversation
// store.
type Agent struct {
	cfg    AgentConfig
	log    *slog.Logger
	client anthropic.Client
	convs  *persistence.Conversations
	fs     *persistence.FS
}

// NewAgent validates cfg and returns the agent activities.
func NewAgent(cfg AgentConfig) (*Agent, error) {
	if cfg.StateDir == "" || !filepath.IsAbs(cfg.StateDir) {
		return nil, errors.New("activities: AgentConfig.StateDir must be an absolute directory")
	}
	if cfg.Intake == nil {
		return nil, errors.New("activities: AgentConfig.Intake is required")
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 2 * time.Minute
	}
	if cfg.Tools == nil {
		cfg.Tools = Builtins()
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	var convs *persistence.Conversations
	var err error
	if cfg.Blob != nil {
		convs = persistence.NewConversationsIn(cfg.Blob)
	} else if convs, err = persistence.NewConversations(cfg.StateDir); err != nil {
		return nil, fmt.Errorf("activities: %w", err)
	}
	fs, err := persistence.NewFS(persistence.Config{StateDir: cfg.StateDir, Blob: cfg.Blob})
	if err != nil {
		return nil, fmt.Errorf("activities: %w", err)
	}
	return &Agent{cfg: cfg, log: log, client: anthropic.NewClient(cfg.requestOptions()...), convs: convs, fs: fs}, nil
}

// Register registers the agent activities under their names.
func (a *Agent) Register(r worker.ActivityRegistry) {
	legacy := a.cfg.LegacyNames
	RegisterNamed(r, a.observedCallModel(), contract.ModelActivityName, legacy)
	RegisterNamed(r, a.AppendMessages, contract.AppendActivityName, legacy)
	RegisterNamed(r, a.OpenSession, contract.OpenSessionActivityName, legacy)
	a.registerRewind(r, legacy) // session_rewind.go
	RegisterNamed(r, a.observedCompact(), contract.CompactActivityName, legacy)
	RegisterNamed(r, a.observedPromptHook(), contract.PromptHookActivityName, legacy) // hook_prompt.go
}

// StateDir is where the tool activities keep sessions, for wiring the agent
// activities beside them.
func (a *Activities) StateDir() string { return a.cfg.StateDir }

// Blob is the shared blob store the activities were given (nil: none), for wiring
// the agent activities beside them.
func (a *Activities) Blob() *blobstore.Store { return a.cfg.Blob }
