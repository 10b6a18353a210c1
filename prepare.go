package toolpipe

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/mcptools"
	"github.com/toolpipe/toolpipe/persisted"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/sandbox"
	"github.com/toolpipe/toolpipe/settings"
	"github.com/toolpipe/toolpipe/workflows"
)

// Settings say which Claude Code settings a turn or session enforces (hooks,
// permission rules and mode, the sandbox: DESIGN §5) and whether the working
// directory's own configuration takes effect. They are read when the turn or
// session starts, on the client, because workflow code does no I/O; a file that
// does not parse refuses the start (IsInvalidInput) naming its line and column.
type Settings struct {
	// File, when set, is the only settings file (Claude Code's --settings); it
	// must exist. Otherwise the user's settings.json and, in a trusted workspace,
	// the working directory's .claude/settings.json and settings.local.json apply.
	File string
	// UserDir holds the user's settings.json; "" means $CLAUDE_CONFIG_DIR, else
	// ~/.claude, as in Claude Code.
	UserDir string
	// TrustWorkspace says the working directory's own files take effect: its
	// .claude/settings*.json and its .mcp.json (which starts programs on the
	// worker). Untrusted, they are skipped with a warning.
	TrustWorkspace bool
	// Mode is the permission mode the user chose (default, acceptEdits, plan,
	// dontAsk, bypassPermissions); it wins over the files' defaultMode. "" leaves
	// theirs.
	Mode string
	// ProjectMode is the mode the workspace's own configuration asks for; it
	// applies only when it does not raise the user's.
	ProjectMode string
	// AskTimeout is how long a call that asks for approval waits for an answer
	// before it is denied; 0 means 24 hours.
	AskTimeout time.Duration
	// MCPEnvAllow are the variables a .mcp.json may expand with ${VAR}, as the
	// workers' Options.MCPEnvAllow: the file is checked here with them.
	MCPEnvAllow []string
}

// prepared is what the client learnt for a turn's or session's input.
type prepared struct {
	settings *workflows.TurnSettings
	mcp      bool
	attrs    bool
	failed   bool // ToolpipeFailedCalls too
}

// prepare reads the settings and the MCP configuration of workdir for session.
// Without Settings the turn enforces none and lists no MCP tools, as a turn
// started with neither.
func (c *Client) prepare(ctx context.Context, session, workdir string, s *Settings, warn func(string)) (prepared, error) {
	var p prepared
	p.attrs, p.failed = c.searchAttributes(ctx)
	if s == nil {
		return p, nil
	}
	var err error
	if p.settings, err = c.loadSettings(session, workdir, *s, warn); err != nil {
		return p, err
	}
	if p.settings != nil && p.settings.Hooks.HasPrompt() && c.promptCheck != nil {
		if err := c.promptCheck(); err != nil {
			return p, &InputError{Err: err}
		}
	}
	if s.TrustWorkspace {
		// Checked here so that a malformed file refuses the start; the worker reads
		// it again when it lists the tools (the entries can hold secrets, which
		// must not enter history).
		_, found, err := mcptools.Load(workdir, mcptools.Env{Allow: s.MCPEnvAllow})
		if err != nil {
			return p, &InputError{Err: err}
		}
		p.mcp = found
	}
	return p, nil
}

// knownTool reports whether settings' rules may name the tool: a built-in one
// (NotebookEdit among them, beside Claude Code's first vocabulary) or one of the
// program's own (WithTools).
func (c *Client) knownTool(name string) bool {
	if _, ok := activities.Builtins().Lookup(name); ok {
		return true
	}
	return c.tools[name]
}

// loadSettings loads the settings a turn enforces, resolving their directories
// now, or nil when nothing is to be enforced: such a turn runs exactly as one
// without settings.
func (c *Client) loadSettings(session, workdir string, s Settings, warn func(string)) (*workflows.TurnSettings, error) {
	opts := settings.LoadOptions{File: s.File, ProjectDir: workdir, UserDir: s.UserDir, ProjectMode: s.ProjectMode, UserMode: s.Mode,
		TrustProject: s.File == "" && s.TrustWorkspace,
		Tools:        c.knownTool}
	loaded, err := settings.Load(opts)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	for _, w := range loaded.Warnings {
		warn(w)
	}
	var private []string
	if c.stateDir != "" {
		private = []string{c.stateDir}
	}
	pol, err := loaded.Policy(settings.PolicyOptions{WorkDir: workdir, Mode: s.Mode, PrivateDirs: private})
	if err != nil {
		return nil, &InputError{Err: err}
	}
	sb, err := sandbox.Load(loaded.Files, workdir)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	if pol == nil && loaded.Hooks.Empty() && !sb.On() {
		return nil, nil
	}
	ts := &workflows.TurnSettings{Hooks: loaded.Hooks, Permissions: pol, ProjectDir: workdir, AskTimeout: s.AskTimeout, Sandbox: sb}
	if c.stateDir != "" {
		ts.TranscriptPath = hooks.TranscriptPath(c.stateDir, session)
	}
	return ts, nil
}

// checkPlace checks a session id and working directory: the session names a
// directory of the state directory.
func checkPlace(session, workdir string) error {
	if err := persisted.ValidateName("session", session); err != nil {
		return invalid("%v: a session must be usable as a directory name (no '/', '\\', '..' or NUL)", strings.TrimPrefix(err.Error(), "persist: "))
	}
	if workdir == "" || !filepath.IsAbs(workdir) {
		return invalid("the working directory %q must be an absolute path", workdir)
	}
	return nil
}

// readFiles are the files the session's earlier turns read or wrote, which a turn
// starts with: they are kept with the session's state in the state directory
// (persistence.ReadState). None without a state directory.
func (c *Client) readFiles(session string) ([]string, error) {
	if c.stateDir == "" {
		return nil, nil
	}
	rs, err := persistence.NewReadState(c.stateDir)
	if err != nil {
		return nil, err
	}
	files, err := rs.Load(session)
	if err != nil {
		return nil, fmt.Errorf("session %s: read state: %w", session, err)
	}
	return files, nil
}

// keepReadFiles records what a turn read for the session's next turns.
func (c *Client) keepReadFiles(session string, files []string) error {
	if c.stateDir == "" || len(files) == 0 {
		return nil
	}
	rs, err := persistence.NewReadState(c.stateDir)
	if err == nil {
		err = rs.Add(session, files)
	}
	if err != nil {
		return errors.New("the files this turn read are not remembered for the next turn: " + err.Error())
	}
	return nil
}
