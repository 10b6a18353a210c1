package activities

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/mcptools"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/toolenv"
	"github.com/toolpipe/toolpipe/webfetch"
)

// Config holds what the tool activities need.
type Config struct {
	// StateDir holds per-session scratch space and persisted outputs; absolute.
	StateDir string
	// Logger receives the activities' logs; nil means slog.Default().
	Logger *slog.Logger
	// Store keeps outputs over their threshold; nil means files under StateDir,
	// copied to Blob.
	Store persistence.Store
	// Blob is the blob store every host of a fleet shares (blob-url): persisted
	// outputs are copied there and Read and Grep fetch another host's from it. nil
	// is the state directory alone.
	Blob *blobstore.Store
	// Overrides are the operator's per-tool thresholds; nil means none.
	Overrides Overrides
	// WebFetch configures the WebFetch tool; the zero value refuses private
	// addresses and returns pages as markdown.
	WebFetch WebFetchConfig
	// MCP holds the MCP client sessions; nil means a new mcptools.Manager, which
	// connects to nothing until an MCP activity runs. Close closes it.
	MCP MCPServers
	// Env says which of the worker's environment variables tool processes see;
	// nil means toolenv.FromEnvironment() (secrets such as ANTHROPIC_* removed).
	Env *toolenv.Policy
	// MCPEnvAllow are the variables .mcp.json's ${VAR} may expand when MCP is nil
	// (mcptools.Env): the user's mcp-env-allow.
	MCPEnvAllow []string
	// Tools are the program's own tools (tool.NewCustom), run and offered beside
	// the built-in ones: with them they make the worker's Registry.
	Tools []tool.Tool
	// LegacyNames registers every activity under an older toolpipe's name too
	// (contract.Unprefixed), for the turns and sessions it started that are still
	// running: toolpipe's own workers do; a program's worker, where "Read" may be
	// the program's, need not.
	LegacyNames bool
}

// LegacyNames says whether the activities are registered under an older
// toolpipe's names too (Config.LegacyNames).
func (a *Activities) LegacyNames() bool { return a.cfg.LegacyNames }

// RegisterNamed registers fn under name, and under its unprefixed name
// (contract.Unprefixed) when legacy: the one place toolpipe's activities get their
// names on a worker.
func RegisterNamed(r worker.ActivityRegistry, fn any, name string, legacy bool) {
	r.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: name})
	if legacy {
		r.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: contract.Unprefixed(name)})
	}
}

// Activities are the tool activities; register them with Register.
type Activities struct {
	cfg   Config
	log   *slog.Logger
	store persistence.Store
	// results are the outputs another host persisted, fetched for Read and Grep;
	// nil without a shared blob store.
	results *persistence.FS
	mcp     MCPServers
	// calls holds the stats of the calls running now, for their spans (telemetry.go).
	calls sync.Map
	// fetcher and pageModel serve WebFetch; pageModel is nil without an API key.
	fetcher   *webfetch.Fetcher
	pageModel *pageModel
	// reg is the worker's tools (tools.go).
	reg *tool.Registry
	// ckpt is the workspace checkpointer, made at the first checkpoint (checkpoint.go).
	ckpt checkpoints
}

// New validates cfg and returns the activities.
func New(cfg Config) (*Activities, error) {
	if cfg.StateDir == "" || !filepath.IsAbs(cfg.StateDir) {
		return nil, errors.New("activities: Config.StateDir must be an absolute directory")
	}
	if cfg.Env == nil {
		p := toolenv.FromEnvironment()
		cfg.Env = &p
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	store := cfg.Store
	var results *persistence.FS
	if store == nil || cfg.Blob != nil {
		fs, err := persistence.NewFS(persistence.Config{StateDir: cfg.StateDir, Blob: cfg.Blob})
		if err != nil {
			return nil, fmt.Errorf("activities: %w", err)
		}
		if store == nil {
			store = fs
		}
		if cfg.Blob != nil {
			results = fs
		}
	}
	servers := cfg.MCP
	if servers == nil {
		servers = mcptools.NewManager(mcptools.WithLogger(log), mcptools.WithEnvAllow(cfg.MCPEnvAllow))
	}
	a := &Activities{cfg: cfg, log: log, store: store, results: results, mcp: servers,
		fetcher: newFetcher(cfg.WebFetch), pageModel: newPageModel(cfg.WebFetch.Model)}
	reg, err := tool.NewRegistry(append(builtins(a), cfg.Tools...)...)
	if err != nil {
		return nil, fmt.Errorf("activities: %w", err)
	}
	for _, t := range cfg.Tools {
		if contract.ReservedName(t.Spec().Name) {
			return nil, fmt.Errorf("activities: tool name %q is the name of one of toolpipe's activities (or starts with the SDK's reserved %q); a tool's activity is registered under its name: pick another name", t.Spec().Name, "__temporal")
		}
	}
	a.reg = reg
	return a, nil
}

// Register registers every tool activity under its tool name, which is the activity
// type the Turn workflow schedules, and the activities of the pipeline around the
// calls.
func (a *Activities) Register(r worker.ActivityRegistry) {
	legacy := a.cfg.LegacyNames
	for _, name := range a.reg.Names() {
		d, _ := a.reg.Lookup(name)
		if d.InSession() {
			continue // the session answers its calls
		}
		run := d.Run
		if !d.IsBuiltin() {
			// A program's function should not have to know about Temporal: it is
			// kept alive and its output size-controlled here, as the built-in tools
			// do for themselves.
			run = a.limited(heartbeating(d.Run))
		}
		RegisterNamed(r, failingOnError(a.fenced(a.observed(name, run))), contract.ToolActivity(name), legacy) // fence.go
	}
	// A call that never became a tool activity, recorded as a failed one.
	RegisterNamed(r, RefusedCall, contract.RefusedCallActivityName, legacy)
	// The steps of the tool pipeline around the call (DESIGN §3.8, §5).
	RegisterNamed(r, observedHook(a.RunHook), contract.HookActivityName, legacy)
	RegisterNamed(r, a.ResolvePaths, contract.ResolvePathsActivityName, legacy)
	RegisterNamed(r, a.AppendTranscript, contract.TranscriptActivityName, legacy)
	// Background shells: one activity per task, started by the session.
	RegisterNamed(r, a.BashBackground, contract.BashBackgroundActivityName, legacy)
	// Skills: listed when a session starts, loaded by the Skill tool (skill.go).
	RegisterNamed(r, a.LoadSkills, contract.LoadSkillsActivityName, legacy)
	// MCP tools: one activity type for every call (mcp.go).
	RegisterNamed(r, a.ListMCPTools, contract.ListMCPToolsActivityName, legacy)
	RegisterNamed(r, failingOnError(a.observedMCP), contract.MCPCallActivityName, legacy)
	// Workspace checkpoints, on the session's host (checkpoint.go).
	RegisterNamed(r, a.CaptureCheckpoint, contract.CaptureCheckpointActivityName, legacy)
	RegisterNamed(r, a.RestoreCheckpoint, contract.RestoreCheckpointActivityName, legacy)
	RegisterNamed(r, a.PrepareWorkspace, contract.PrepareWorkspaceActivityName, legacy) // workspace_source.go
}

// ToolFunc runs one tool call.
type ToolFunc = func(context.Context, tool.Call) (tool.Output, error)

// limited applies size control to a tool that builds its output in memory (Bash and
// Grep stream theirs through sizeControl instead).
func (a *Activities) limited(fn func(context.Context, tool.Call) (tool.Output, error)) func(context.Context, tool.Call) (tool.Output, error) {
	return func(ctx context.Context, call tool.Call) (tool.Output, error) {
		out, err := fn(ctx, call)
		if err != nil {
			return out, err
		}
		return a.limit(call, out), nil
	}
}

// errorOutput is a tool error the model sees.
func errorOutput(format string, args ...any) (tool.Output, error) {
	return tool.Output{Content: fmt.Sprintf(format, args...), IsError: true}, nil
}

// resolve makes p absolute against the working directory.
func resolve(workdir, p string) string {
	if p == "" {
		return filepath.Clean(workdir)
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(workdir, p)
}
