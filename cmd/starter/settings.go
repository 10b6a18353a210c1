package main

import (
	"fmt"
	"io"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/mcptools"
	"github.com/toolpipe/toolpipe/sandbox"
	"github.com/toolpipe/toolpipe/settings"
	"github.com/toolpipe/toolpipe/workflows"
)

// workspaceTrusted is the trust decision for the working directory's own files
// (.mcp.json, .claude/settings*.json): the one decision (config.Trust) that config
// made for its toolpipe.yaml, or makes now, asking on a terminal at most once.
// When it is not trusted, the notice naming each skipped file goes to warn, once.
func workspaceTrusted(cfg config.Config, warn io.Writer) bool {
	d := cfg.Trust.Decide(cfg.Workdir, config.WorkspaceFiles(cfg.Workdir, false, true))
	if d.Notice != "" {
		fmt.Fprintln(warn, "starter: notice:", d.Notice)
	}
	return d.Trusted
}

// turnSettings loads the Claude Code settings a turn enforces (DESIGN §5): the
// --settings file, else the user's ~/.claude/settings.json (or
// $CLAUDE_CONFIG_DIR/settings.json) and, in a trusted workspace, its
// .claude/settings.json and .claude/settings.local.json. It resolves their
// directories here, before the turn starts, because workflow code does no I/O. It
// returns nil when nothing is to be enforced, so such a turn runs exactly as one
// without settings. A malformed file is bad input (exit 2), named with its line
// and column.
func turnSettings(cfg config.Config, warn io.Writer) (*workflows.TurnSettings, error) {
	opts := settings.LoadOptions{File: cfg.Settings, ProjectDir: cfg.Workdir, ProjectMode: cfg.ProjectPermissionMode,
		// Rules may name every tool the worker has (NotebookEdit among them).
		Tools: func(name string) bool { _, ok := activities.Builtins().Lookup(name); return ok }}
	if cfg.PermissionModeSet {
		opts.UserMode = cfg.PermissionMode
	}
	if cfg.Settings == "" {
		opts.TrustProject = workspaceTrusted(cfg, warn)
	}
	s, err := settings.Load(opts)
	if err != nil {
		return nil, badInputError{err}
	}
	for _, w := range s.Warnings {
		fmt.Fprintln(warn, "starter: warning:", w)
	}
	mode := ""
	if cfg.PermissionModeSet {
		mode = cfg.PermissionMode
	}
	pol, err := s.Policy(settings.PolicyOptions{WorkDir: cfg.Workdir, Mode: mode, PrivateDirs: []string{cfg.StateDir}})
	if err != nil {
		return nil, badInputError{err}
	}
	sb, err := sandbox.Load(s.Files, cfg.Workdir)
	if err != nil {
		return nil, badInputError{err}
	}
	if pol == nil && s.Hooks.Empty() && !sb.On() {
		return nil, nil
	}
	return &workflows.TurnSettings{Hooks: s.Hooks, Permissions: pol, ProjectDir: cfg.Workdir, AskTimeout: cfg.AskTimeout, Sandbox: sb,
		TranscriptPath: hooks.TranscriptPath(cfg.StateDir, cfg.Session)}, nil
}

// turnMCP reports whether the working directory configures MCP servers that the
// turn may use, so the turn lists their tools: only in a trusted workspace (its
// .mcp.json starts programs on the worker). The file is checked here so that a
// malformed one is bad input (exit 2) with its line and column, before any turn
// starts; the worker reads it again itself, since the entries can hold secrets
// that must not enter history.
func turnMCP(cfg config.Config, warn io.Writer) (bool, error) {
	if !workspaceTrusted(cfg, warn) {
		return false, nil
	}
	_, found, err := mcptools.Load(cfg.Workdir, mcptools.Env{Allow: cfg.MCPEnvAllow})
	if err != nil {
		return false, badInputError{err}
	}
	return found, nil
}

// reportTurn prints on stderr what the turn says to the user rather than to the
// model: hook messages and slow hook phases, and that the session must end.
func reportTurn(stderr io.Writer, res workflows.TurnResult) {
	for _, n := range res.Notices {
		if n.ToolUseID == "" { // about the turn, not one call (MCP servers)
			fmt.Fprintf(stderr, "  %s\n", n.Text)
			continue
		}
		fmt.Fprintf(stderr, "  %s: %s\n", n.ToolUseID, n.Text)
	}
	if res.Stop {
		fmt.Fprintf(stderr, "starter: a hook stopped the session; it ends after this turn: %s\n", res.StopReason)
	}
}
