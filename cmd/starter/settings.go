package main

import (
	"fmt"
	"io"
	"os"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/internal/config"
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

// settings say which settings files a turn or session enforces (DESIGN §5): the
// --settings file, else the user's ~/.claude/settings.json (or
// $CLAUDE_CONFIG_DIR/settings.json) and, in a trusted workspace, its
// .claude/settings.json and .claude/settings.local.json; and whether the
// workspace's .mcp.json is used. The Go API reads them when the turn starts; a
// malformed file is bad input (exit 2), named with its line and column.
func (e *env) settings() *toolpipe.Settings {
	s := &toolpipe.Settings{File: e.cfg.Settings, TrustWorkspace: workspaceTrusted(e.cfg, os.Stderr),
		ProjectMode: e.cfg.ProjectPermissionMode, AskTimeout: e.cfg.AskTimeout, MCPEnvAllow: e.cfg.MCPEnvAllow}
	if e.cfg.PermissionModeSet {
		s.Mode = e.cfg.PermissionMode
	}
	return s
}

// warn prints what the Go API says the user should know on stderr.
func (e *env) warn(msg string) { fmt.Fprintln(os.Stderr, "starter: warning:", msg) }

// reportTurn prints on stderr what the turn says to the user rather than to the
// model: hook messages and slow hook phases, and that the session must end.
func reportTurn(stderr io.Writer, res toolpipe.TurnResult) {
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
