package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/workflows"
)

func statusCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "status WORKFLOW_ID",
		Short: "Show each tool's state in a turn",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := connect(cmd)
			if err != nil {
				return err
			}
			defer e.close()
			// A paused or finished turn has no worker to answer a query: say that it is
			// paused, and answer with a worker that runs no tool (queues.go).
			if note := e.pausedNote(cmd.Context(), args[0]); note != "" {
				fmt.Fprintln(cmd.OutOrStdout(), note)
			}
			v, err := e.query(cmd.Context(), args[0], workflows.StateQuery)
			if err != nil {
				return fmt.Errorf("query %s: %w", args[0], err)
			}
			var st workflows.TurnState
			if err := v.Get(&st); err != nil {
				return fmt.Errorf("query %s: %w", args[0], err)
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tSTATUS\tSAFE\tINTERRUPT\tCALL")
			for _, t := range st.Tools {
				status := string(t.Status)
				if t.IsError {
					status += " (error)"
				}
				fmt.Fprintf(w, "%s\t%s\t%v\t%s\t%s\n", t.ID, status, t.Safe, t.Interrupt, t.Description)
			}
			w.Flush()
			fmt.Fprintf(cmd.OutOrStdout(), "interruptible: %v  intake closed: %v\n", st.Interruptible, st.IntakeClosed)
			printApprovals(cmd.OutOrStdout(), args[0], st) // approve.go
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
			e, err := connect(cmd)
			if err != nil {
				return err
			}
			defer e.close()
			if err := e.conn.Client.SignalWorkflow(cmd.Context(), args[0], "", workflows.InterruptSignal, nil); err != nil {
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
