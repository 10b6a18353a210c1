package main

import (
	"context"
	"fmt"

	"github.com/toolpipe/toolpipe/connect"
	"github.com/toolpipe/toolpipe/searchattr"
)

// printLink tells where to watch a workflow when the embedded server serves the Web
// UI: its page (history, summaries; the User Metadata tab has the live details),
// and for a session the list of its workflows (the session and its turns).
func (e *env) printLink(ctx context.Context, workflowID, runID string) {
	link := e.conn.Link(ctx, e.cfg.StateDir, workflowID, runID)
	if link == "" {
		if e.conn.Server != nil && e.conn.NoUI != "" && e.conn.NoUI != "off" {
			// This process asked for the UI and could not serve it (its port taken).
			fmt.Fprintf(e.stderr, "Web UI: none: %s\n", e.conn.NoUI)
		}
		return
	}
	fmt.Fprintf(e.stderr, "Web UI: %s\n", link)
	if e.conn.HasSearchAttributes(ctx) {
		q := fmt.Sprintf("%s=%q", searchattr.SessionID, e.cfg.Session)
		fmt.Fprintf(e.stderr, "  this session's workflows: %s\n", connect.ListLink(e.conn.UIAddress(e.cfg.StateDir), e.conn.Namespace, q))
	}
}
