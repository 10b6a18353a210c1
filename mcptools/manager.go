package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/toolenv"
)

// connectTimeout bounds starting a server and its initialize handshake.
const connectTimeout = 30 * time.Second

// terminateGrace is how long a stdio server gets to exit after its stdin closes
// before it is sent SIGTERM (then SIGKILL), at Close or when its config changed.
const terminateGrace = 2 * time.Second

// Manager keeps one MCP client session per (working directory, server), connected
// on first use. A session whose server exits or whose transport fails is dropped, so
// the next use connects again. It is safe for concurrent use.
type Manager struct {
	log *slog.Logger
	// vars says which ${VAR} of .mcp.json expand, from where.
	vars   Env
	env    toolenv.Policy
	client *mcp.Client

	// source says which servers a working directory has (source.go).
	source Source

	mu     sync.Mutex
	conns  map[connKey]*conn
	closed bool
	// parsed is each working directory's .mcp.json as last parsed (load).
	parsed map[string]parsedConfig
	parses int // how many times a .mcp.json was parsed (tests)
}

// parsedConfig is a .mcp.json as parsed, with the bytes it was parsed from.
type parsedConfig struct {
	data []byte
	cfg  Config
	err  error
}

type connKey struct{ workdir, server string }

// conn is one server's session, or the attempt to make it.
type conn struct {
	// spec is the configuration it was started with: an edited .mcp.json entry
	// starts a new session.
	spec  string
	ready chan struct{} // closed once the connect attempt ended
	// closed is closed once the session is closed and a stdio server reaped, which
	// is when all it wrote to stderr is in stderr (closeConn).
	closed    chan struct{}
	closeOnce sync.Once
	session   *mcp.ClientSession
	err       error
	stderr    *tailBuffer

	mu    sync.Mutex
	tools map[string]string // normalised tool name -> the server's name for it
}

// Option configures a Manager.
type Option func(*Manager)

// WithLogger sets the logger of connection events; the default is slog.Default().
func WithLogger(l *slog.Logger) Option { return func(m *Manager) { m.log = l } }

// WithGetenv sets where ${VAR} references of .mcp.json are looked up; the default
// is the worker's environment with its held secrets (toolenv.LookupEnv).
func WithGetenv(f func(string) (string, bool)) Option { return func(m *Manager) { m.vars.Lookup = f } }

// WithEnvAllow sets the variables (names or shell patterns) .mcp.json's ${VAR}
// may expand: the user's mcp-env-allow. With none, a server whose entry refers to
// any variable is refused (Env).
func WithEnvAllow(names []string) Option { return func(m *Manager) { m.vars.Allow = names } }

// WithEnvPolicy sets which of the worker's environment variables stdio servers
// inherit; the default is toolenv.FromEnvironment() (secrets removed). A server
// that needs one names it in its "env" with ${VAR}.
func WithEnvPolicy(p toolenv.Policy) Option { return func(m *Manager) { m.env = p } }

// NewManager returns a Manager with no sessions.
func NewManager(opts ...Option) *Manager {
	m := &Manager{log: slog.Default(), vars: Env{Lookup: toolenv.LookupEnv}, env: toolenv.FromEnvironment(), conns: map[connKey]*conn{}, parsed: map[string]parsedConfig{}}
	for _, o := range opts {
		o(m)
	}
	m.client = mcp.NewClient(&mcp.Implementation{Name: "toolpipe", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{}, // no roots, sampling or elicitation
	})
	return m
}

// loadFile is Load with the parse kept: the file is read at every listing and call, so
// that an edit takes effect at once, and parsed (its variables expanded, its
// entries checked) only when its bytes changed. A turn lists the tools once and
// calls them many times: without it every call parsed the file again.
func (m *Manager) loadFile(workdir string) (Config, bool, error) {
	path := filepath.Join(workdir, ConfigFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{}, false, nil
	}
	if err != nil {
		return Config{}, true, fmt.Errorf("mcp: read %s: %w", path, err)
	}
	m.mu.Lock()
	p, ok := m.parsed[path]
	m.mu.Unlock()
	if ok && bytes.Equal(p.data, data) {
		return p.cfg, true, p.err
	}
	cfg, err := Parse(data, path, m.vars)
	m.mu.Lock()
	m.parsed[path] = parsedConfig{data: data, cfg: cfg, err: err}
	m.parses++
	m.mu.Unlock()
	return cfg, true, err
}

// ErrClosed is returned after Close.
var ErrClosed = errors.New("mcp: the manager is closed (the worker is shutting down)")

// ListTools lists the tools of every server configured in workdir, sorted by name.
// A server that cannot be reached is a tool.MCPFailure, not an error; err is for a missing or
// invalid .mcp.json.
func (m *Manager) ListTools(ctx context.Context, workdir string) ([]tool.MCPSpec, []tool.MCPFailure, error) {
	cfg, found, err := m.load(workdir)
	if err != nil {
		return nil, nil, err
	}
	if !found {
		return nil, nil, nil
	}
	names := cfg.Names()
	var failures []tool.MCPFailure
	for _, name := range cfg.RefusedNames() { // a notice each, naming the variables and how to allow them
		failures = append(failures, tool.MCPFailure{Server: name, Error: cfg.Refused[name]})
	}
	specs := make([][]tool.MCPSpec, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() { specs[i], errs[i] = m.listServer(ctx, workdir, name, cfg.Servers[name]) })
	}
	wg.Wait()
	var all []tool.MCPSpec
	for i, name := range names {
		if errs[i] != nil {
			failures = append(failures, tool.MCPFailure{Server: name, Error: toolenv.Redact(errs[i].Error(), cfg.Secrets(name))})
		}
		all = append(all, specs[i]...)
	}
	slices.SortFunc(all, func(a, b tool.MCPSpec) int { return cmpString(a.Name, b.Name) })
	return all, failures, nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// listServer lists one server's tools; a tool whose schema does not compile is
// left out with a warning in the log.
func (m *Manager) listServer(ctx context.Context, workdir, name string, s Server) ([]tool.MCPSpec, error) {
	c, err := m.session(ctx, workdir, name, s)
	if err != nil {
		return nil, err
	}
	var specs []tool.MCPSpec
	byName := map[string]string{}
	for t, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err() // the caller gave up; the session is fine
			}
			m.drop(connKey{workdir, name}, c, err)
			return nil, m.unavailable(name, c, err)
		}
		spec, err := toSpec(name, t)
		if err != nil {
			m.log.Warn("mcp: tool left out", "server", name, "tool", t.Name, "error", err)
			continue
		}
		byName[tool.NormalizeMCPName(t.Name)] = t.Name
		specs = append(specs, spec)
	}
	c.mu.Lock()
	c.tools = byName
	c.mu.Unlock()
	return specs, nil
}

// toSpec converts a listed tool; the spec must compile, or the turn would drop it.
func toSpec(server string, t *mcp.Tool) (tool.MCPSpec, error) {
	schema, err := json.Marshal(t.InputSchema)
	if err != nil {
		return tool.MCPSpec{}, fmt.Errorf("input schema: %w", err)
	}
	desc := t.Description
	if r := []rune(desc); len(r) > tool.MCPDescriptionMaxChars {
		desc = string(r[:tool.MCPDescriptionMaxChars-1]) + "…"
	}
	spec := tool.MCPSpec{
		Name: tool.MCPName(server, t.Name), Description: desc, InputSchema: schema,
		ReadOnly: t.Annotations != nil && t.Annotations.ReadOnlyHint,
	}
	if _, err := spec.Definition(); err != nil {
		return tool.MCPSpec{}, err
	}
	return spec, nil
}

// Call calls the MCP tool named mcp__SERVER__TOOL with input. Every failure the
// model can act on is an error result; the error is ctx's when the call was
// cancelled, or ErrClosed.
// The values the server's ${VAR} references expanded to are redacted from the
// result, which is stored in the workflow history.
func (m *Manager) Call(ctx context.Context, workdir, name string, input json.RawMessage) (tool.Output, error) {
	server, toolName, ok := tool.ParseMCPName(name)
	if !ok {
		return errorOutput("%q is not an MCP tool name (mcp__SERVER__TOOL)", name), nil
	}
	cfg, _, err := m.load(workdir)
	if err != nil {
		return errorOutput("MCP server %s is unavailable: %v", server, err), nil
	}
	if why, refused := cfg.Refused[server]; refused {
		return errorOutput("MCP server %s is %s", server, why), nil
	}
	s, ok := cfg.Servers[server]
	if !ok {
		return errorOutput("MCP server %s is not configured in %s", server, ConfigFile), nil
	}
	out, err := m.call(ctx, workdir, server, toolName, s, input)
	out.Content = toolenv.Redact(out.Content, cfg.Secrets(server))
	return out, err
}

func (m *Manager) call(ctx context.Context, workdir, server, toolName string, s Server, input json.RawMessage) (tool.Output, error) {
	c, err := m.session(ctx, workdir, server, s)
	if errors.Is(err, ErrClosed) {
		return tool.Output{}, ErrClosed
	}
	if ctx.Err() != nil {
		return tool.Output{}, ctx.Err()
	}
	if err != nil {
		return errorOutput("%v", err), nil
	}
	original, err := m.resolveTool(ctx, workdir, server, c, toolName)
	if err != nil {
		return errorOutput("%v", err), nil
	}
	var args any = map[string]any{}
	if len(input) > 0 && string(input) != "null" {
		args = input
	}
	res, err := c.session.CallTool(ctx, &mcp.CallToolParams{Name: original, Arguments: args})
	if ctx.Err() != nil {
		return tool.Output{}, ctx.Err()
	}
	switch {
	case err == nil:
	case serverAnswered(err):
		// The server answered with a protocol error (unknown tool, bad params):
		// it is alive, so the session stays.
		return errorOutput("MCP server %s: %v", server, err), nil
	default:
		m.drop(connKey{workdir, server}, c, err)
		return errorOutput("%v", m.unavailable(server, c, err)), nil
	}
	return Output(res), nil
}

// resolveTool maps a normalised tool name back to the server's own, listing the
// server's tools when this session has not yet.
func (m *Manager) resolveTool(ctx context.Context, workdir, server string, c *conn, name string) (string, error) {
	c.mu.Lock()
	known := c.tools
	c.mu.Unlock()
	if known == nil {
		cfg, _, err := m.load(workdir)
		if err != nil {
			return "", err
		}
		if _, err := m.listServer(ctx, workdir, server, cfg.Servers[server]); err != nil {
			return "", err
		}
		c.mu.Lock()
		known = c.tools
		c.mu.Unlock()
	}
	if original, ok := known[name]; ok {
		return original, nil
	}
	return "", fmt.Errorf("MCP server %s has no tool %s", server, name)
}

// stderrSettle bounds how long the error of a failed server waits for the end of
// its stderr: a crashed process's last words arrive through a pipe that is read
// until it exits, after its stdout has already closed the session.
const stderrSettle = 2 * time.Second

// unavailable is the error of a server that failed: the session was dropped (and is
// being closed), so its stderr is read once it is closed, or after stderrSettle.
func (m *Manager) unavailable(server string, c *conn, err error) error {
	select {
	case <-c.closed:
	case <-time.After(stderrSettle):
	}
	msg := fmt.Sprintf("MCP server %s is unavailable: %v", server, err)
	if tail := c.stderr.String(); tail != "" {
		msg += "; its stderr ends with: " + tail
	}
	return errors.New(msg + "; it will be reconnected on the next call")
}

// serverAnswered reports whether a call failed with an error response of a live
// server (unknown tool, invalid params) rather than a broken connection, which the
// JSON-RPC layer also reports as error objects of its own codes.
func serverAnswered(err error) bool {
	var we *jsonrpc.Error
	if !errors.As(err, &we) || errors.Is(err, mcp.ErrConnectionClosed) {
		return false
	}
	switch we.Code {
	case codeUnknown, codeClientClosing, codeServerClosing, codeRejected:
		return false
	}
	return true
}

// The go-sdk's own JSON-RPC error codes for a connection that is going away.
const (
	codeUnknown       = -32001
	codeClientClosing = -32003
	codeServerClosing = -32004
	codeRejected      = -32005
)

func errorOutput(format string, args ...any) tool.Output {
	return tool.Output{Content: fmt.Sprintf(format, args...), IsError: true}
}
