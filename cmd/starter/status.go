package main

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	"github.com/spf13/cobra"

	"github.com/toolpipe/toolpipe/internal/config"
)

func statusCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "status WORKFLOW_ID",
		Short: "Show each tool's state in a turn, or where a session stands",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := connectOnly(cmd)
			if err != nil {
				return err
			}
			defer e.close()
			ctx, id, out := cmd.Context(), args[0], cmd.OutOrStdout()
			d, err := e.describe(ctx, id, "turn or session")
			if err != nil {
				return err
			}
			typ := d.GetWorkflowExecutionInfo().GetType().GetName()
			switch contract.Prefix + contract.Unprefixed(typ) { // an older toolpipe's "Session" too
			case contract.SessionWorkflowName:
				// A session's state is agent status's: one place prints it.
				return agentStatusCmd().RunE(cmd, []string{strings.TrimPrefix(id, "session-")})
			case contract.TurnWorkflowName:
			default:
				return badInput("%s is a %s workflow, not a toolpipe turn or session", id, typ)
			}
			paused := false
			if how, at, closed := closure(d); closed {
				// Its state comes from its history (closed.go), never from a query.
				fmt.Fprintf(out, "%s finished (%s at %s)\n", id, how, at.Local().Format(time.RFC3339))
			} else if note := e.pausedNote(ctx, id); note != "" {
				fmt.Fprintln(out, note)
				paused = true
			}
			st, err := e.turnState(ctx, id) // closed.go

			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tSTATUS\tSAFE\tINTERRUPT\tCALL")
			for _, t := range st.Tools {
				fmt.Fprintf(w, "%s\t%s\t%v\t%s\t%s\n", t.ID, callStatus(t, paused), t.Safe, t.Interrupt, t.Description)
			}
			w.Flush()
			fmt.Fprintf(out, "interruptible: %v  intake closed: %v\n", st.Interruptible, st.IntakeClosed)
			printApprovals(out, id, st) // approve.go
			return nil
		},
	}
	config.AddFlags(cmd.Flags(), config.KeyStateDir, config.KeyTaskQueue, config.KeyLogLevel)
	addEmbeddedDefaults(cmd)
	return cmd
}

func interruptCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "interrupt WORKFLOW_ID",
		Short: "Interrupt a turn as a new user message would: tools that can be cancelled stop",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := connectOnly(cmd)
			if err != nil {
				return err
			}
			defer e.close()
			if _, err := e.describe(cmd.Context(), args[0], "turn"); err != nil { // closed.go: none is bad input
				return err
			}
			if err := e.api.Turn(args[0]).Interrupt(cmd.Context()); err != nil {
				return fmt.Errorf("interrupt %s: %w", args[0], err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "interrupted %s\n", args[0])
			return nil
		},
	}
	config.AddFlags(cmd.Flags(), config.KeyStateDir, config.KeyTaskQueue, config.KeyLogLevel)
	addEmbeddedDefaults(cmd)
	return cmd
}

// addEmbeddedDefaults: a command that only talks to a turn starts its own embedded
// server (when none runs) on any free port and without the UI.
func addEmbeddedDefaults(cmd *cobra.Command) {
	config.AddFlags(cmd.Flags(), config.KeyPort, config.KeyUI, config.KeyUIPort)
	cmd.Flags().Set(config.KeyPort, "0")
	cmd.Flags().Lookup(config.KeyPort).DefValue = "0"
	cmd.Flags().Set(config.KeyUI, "false")
	cmd.Flags().Lookup(config.KeyUI).DefValue = "false"
}

func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageError{fmt.Errorf("%s takes %d argument(s), got %d", cmd.Name(), n, len(args))}
		}
		return nil
	}
}
