package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/persisted"
	"github.com/toolpipe/toolpipe/persistence"
)

func gcCmd() *cobra.Command {
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "gc",
		Short: "Remove persisted outputs, conversations and payloads no workflow in history references",
		Long: `Remove from the state directory what the namespace's workflow retention has made
unreachable: a session's directory (persisted outputs under tool-results/, its
conversation, scratch files) once no workflow of the session is left in history and
nothing in it changed for a retention period, and payloads stored before the oldest
workflow still in history started. With --dry-run, only say what would go.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			e, err := connectOnly(cmd)
			if err != nil {
				return err
			}
			defer e.close()
			p, err := e.sweepPolicy(cmd.Context())
			if err != nil {
				return err
			}
			p.DryRun = dryRun
			rep, err := persistence.Sweep(e.cfg.StateDir, p)
			if err != nil {
				return err
			}
			verb := "removed"
			if dryRun {
				verb = "would remove"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s %d sessions and %d payloads (%s); retention %v, %d sessions still in history\n",
				verb, len(rep.Sessions), rep.Payloads, persisted.FormatSize(rep.Bytes), p.Retention, len(p.LiveSessions))
			for _, s := range rep.Sessions {
				fmt.Fprintf(cmd.OutOrStdout(), "  session %s\n", s)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "say what would be removed, remove nothing")
	config.AddFlags(cmd.Flags(), config.KeyStateDir, config.KeyLogLevel)
	addEmbeddedDefaults(cmd)
	return cmd
}

// turnOfSession matches a `starter run` turn's id: turn-<session>-<hex digest>.
var turnOfSession = regexp.MustCompile(`^turn-(.+)-[0-9a-f]{20,24}$`)

// sweepPolicy asks the server for the namespace's retention and every workflow
// still in history (open, or closed within retention).
func (e *env) sweepPolicy(ctx context.Context) (persistence.SweepPolicy, error) {
	p := persistence.SweepPolicy{Now: time.Now(), LiveSessions: map[string]bool{}}
	ns, err := e.conn.Client.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: e.conn.Namespace})
	if err != nil {
		return p, fmt.Errorf("gc: describe namespace %s: %w", e.conn.Namespace, err)
	}
	p.Retention = ns.GetConfig().GetWorkflowExecutionRetentionTtl().AsDuration()
	var token []byte
	for {
		resp, err := e.conn.Client.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Namespace: e.conn.Namespace, PageSize: 1000, NextPageToken: token})
		if err != nil {
			return p, fmt.Errorf("gc: list workflows: %w", err)
		}
		for _, w := range resp.GetExecutions() {
			if s := sessionOf(w.GetExecution().GetWorkflowId()); s != "" {
				p.LiveSessions[s] = true
			}
			if st := w.GetStartTime().AsTime(); p.OldestStart.IsZero() || st.Before(p.OldestStart) {
				p.OldestStart = st
			}
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			return p, nil
		}
	}
}

// sessionOf is the session a workflow id belongs to: a `starter run` turn
// (turn-S-…), an agent session, its turns and sub-agents (session-S, session-S/…).
func sessionOf(id string) string {
	if rest, ok := strings.CutPrefix(id, "session-"); ok {
		s, _, _ := strings.Cut(rest, "/")
		return s
	}
	if m := turnOfSession.FindStringSubmatch(id); m != nil {
		return m[1]
	}
	return ""
}
