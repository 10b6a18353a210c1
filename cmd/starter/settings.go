package main

import (
	"fmt"
	"io"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/mcptools"
	"github.com/toolpipe/toolpipe/sandbox"
	"github.com/toolpipe/toolpipe/settings"
	"github.com/toolpipe/toolpipe/workflows"
)

// turnSettings loads the Claude Code settings a turn enforces (DESIGN §5): the
// --settings file, else the working directory's .claude/settings.json and
// .claude/settings.local.json and the user's ~/.claude/settings.json (or
// $CLAUDE_CONFIG_DIR/settings.json). It resolves their directories here, before the
// turn starts, because workflow code does no I/O. It returns nil when nothing is to
// be enforced, so such a turn runs exactly as one without settings. A malformed file
// is bad input (exit 2), named with its line and column.
func turnSettings(cfg config.Config, warn io.Writer) (*workflows.TurnSettings, error) {
	s, err := settings.Load(settings.LoadOptions{File: cfg.Settings, ProjectDir: cfg.Workdir})
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

// turnMCP reports whether the working directory configures MCP servers, so the turn
// lists their tools. The file is checked here so that a malformed one is bad input
// (exit 2) with its line and column, before any turn starts; the worker reads it
// again itself, since the entries can hold secrets that must not enter history.
func turnMCP(cfg config.Config) (bool, error) {
	_, found, err := mcptools.Load(cfg.Workdir, nil)
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
