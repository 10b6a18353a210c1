package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/internal/config"
)

// sessionCmd builds a command that talks to a running session.
func sessionCmd(use, short string, nargs int, run func(e *env, cmd *cobra.Command, id string, args []string) error) *cobra.Command {
	cmd := &cobra.Command{
		Use: use, Short: short, Args: exactArgs(nargs),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := connectOnly(cmd)
			if err != nil {
				return err
			}
			defer e.close()
			if _, err := e.describe(cmd.Context(), sessionWorkflowID(args[0]), "session"); err != nil { // closed.go: none is bad input
				return err
			}
			return run(e, cmd, sessionWorkflowID(args[0]), args[1:])
		},
	}
	config.AddFlags(cmd.Flags(), config.KeyStateDir, config.KeyTaskQueue, config.KeyLogLevel)
	addEmbeddedDefaults(cmd)
	return cmd
}

func agentSendCmd() *cobra.Command {
	return sessionCmd("send SESSION MESSAGE", "Send a user message to a running session: it interrupts the running turn", 2,
		func(e *env, cmd *cobra.Command, id string, args []string) error {
			queued, err := e.api.Session(strings.TrimPrefix(id, "session-")).Send(cmd.Context(), args[0])
			if err != nil {
				return fmt.Errorf("send to %s: %w", id, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "sent: %d message(s) wait for the next model call\n", queued)
			return nil
		})
}

func agentInterruptCmd() *cobra.Command {
	return sessionCmd("interrupt SESSION", "Interrupt a session's running turn: tools that can be cancelled stop", 1,
		func(e *env, cmd *cobra.Command, id string, _ []string) error {
			if err := e.api.Session(strings.TrimPrefix(id, "session-")).Interrupt(cmd.Context()); err != nil {
				return fmt.Errorf("interrupt %s: %w", id, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "interrupted %s\n", id)
			return nil
		})
}

func agentStatusCmd() *cobra.Command {
	return sessionCmd("status SESSION", "Show where a session stands, and its running turn's tools", 1,
		func(e *env, cmd *cobra.Command, id string, _ []string) error {
			closed := closedStatus(cmd.Context(), e, id)
			paused := e.pausedNote(cmd.Context(), id)    // queues.go
			st, err := e.sessionState(cmd.Context(), id) // closed.go: a closed one from its history
			if err != nil {
				if closed != "" {
					return fmt.Errorf("session %s: the workflow %s and its state cannot be read: %w", id, closed, err)
				}
				return fmt.Errorf("status of %s: %w", id, err)
			}
			out := cmd.OutOrStdout()
			w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintf(w, "session\t%s\n", st.SessionID)
			fmt.Fprintf(w, "phase\t%s\n", sessionPhase(st, paused))
			if closed != "" && closed != "completed" {
				fmt.Fprintf(w, "workflow\t%s\n", closed)
			}
			if st.LastError != "" {
				fmt.Fprintf(w, "last error\t%s\n", st.LastError)
			}
			// Model calls are what --max-turns counts; a call whose reply has tool calls
			// runs them in a Turn, numbered as its workflow id (turn-N).
			calls := fmt.Sprint(st.Turns)
			if st.Phase == toolpipe.PhaseModel || st.Phase == toolpipe.PhaseTools {
				calls += fmt.Sprintf(" (call %d running)", st.Turns+1)
			}
			fmt.Fprintf(w, "model calls\t%s\n", calls)
			if st.LastTurn > 0 {
				fmt.Fprintf(w, "turns\t%d\n", st.LastTurn)
			}
			if p := st.Placement; p != nil {
				fmt.Fprintf(w, "host\t%s (task queue %s, placement %d)\n", p.Host, p.Queue, p.Generation)
			}
			for _, t := range st.BackgroundTasks {
				fmt.Fprintf(w, "background task\t%s %s: %s\n", t.ID, t.Status, t.Command)
			}
			if wu := st.Wakeup; wu != nil { // agent_schedulewakeup.go
				fmt.Fprintf(w, "wake-up\t%s\n", wakeupLine(wu))
			}
			writeSessionTools(w, st)           // agent_tasklist.go
			checkpointLines(w, st.Checkpoints) // checkpoints.go
			fmt.Fprintf(w, "conversation\t%d messages, %d bytes (runs: %d)\n", st.Messages, st.Bytes, st.Runs+1)
			fmt.Fprintf(w, "budget\t%d results judged, %d replaced\n", st.Seen, st.Replaced)
			fmt.Fprintf(w, "tokens\t%s\n", st.Usage)
			if st.LastUsage != (toolpipe.Usage{}) {
				fmt.Fprintf(w, "last call\t%s\n", st.LastUsage)
				fmt.Fprintf(w, "context\t%d of %d tokens (%.0f%%)\n", st.LastUsage.Context(), st.ContextWindow,
					100*float64(st.LastUsage.Context())/float64(max(st.ContextWindow, 1)))
			}
			fmt.Fprintf(w, "cost\t$%.4f (estimated at %s prices)\n", st.Cost, st.Model)
			if st.Compactions > 0 {
				fmt.Fprintf(w, "compactions\t%d\n", st.Compactions)
			}
			fmt.Fprintf(w, "waiting messages\t%d\n", st.PendingUser)
			fmt.Fprintf(w, "sandbox\t%s\n", sandboxLine(e)) // sandbox_notice.go
			w.Flush()
			printQuestions(out, st.SessionID, st.Questions) // agent_askuserquestion.go
			if st.TurnID == "" {
				return nil
			}
			fmt.Fprintf(out, "%s turn %d, %s:\n", map[bool]string{false: "running", true: "paused"}[paused != ""], st.TurnNumber, st.TurnID)
			ts, err := e.turnState(cmd.Context(), st.TurnID) // closed.go
			if err != nil {
				fmt.Fprintf(out, "  (its state is not available: %v)\n", err)
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			for _, t := range ts.Tools {
				fmt.Fprintf(tw, "  %s\t%s\t%s\n", t.ID, callStatus(t, paused != ""), t.Description)
			}
			tw.Flush()
			for _, p := range ts.Pending { // why each waits, until when, and what answers it
				printPending(out, st.TurnID, p) // approvals_watch.go
			}
			return nil
		})
}

// closedStatus is how a session's workflow closed ("failed", "terminated", ...), or
// "" while it runs or when it cannot be told.
func closedStatus(ctx context.Context, e *env, id string) string {
	d, err := e.conn.Client.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return ""
	}
	st := d.WorkflowExecutionInfo.Status
	if st == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING || st == enumspb.WORKFLOW_EXECUTION_STATUS_UNSPECIFIED {
		return ""
	}
	return strings.ToLower(strings.TrimPrefix(st.String(), "WORKFLOW_EXECUTION_STATUS_"))
}

func agentCompactCmd() *cobra.Command {
	cmd := sessionCmd("compact SESSION [INSTRUCTIONS]", "Compact a running session's conversation into a summary before its next model call", 1,
		func(e *env, cmd *cobra.Command, id string, args []string) error {
			instr := strings.Join(args, " ")
			if err := e.api.Session(strings.TrimPrefix(id, "session-")).Compact(cmd.Context(), instr); err != nil {
				return fmt.Errorf("compact %s: %w", id, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s compacts before its next model call\n", id)
			return nil
		})
	cmd.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) < 1 || len(args) > 2 {
			return usageError{fmt.Errorf("compact takes SESSION and optional INSTRUCTIONS (quote them), got %d arguments", len(args))}
		}
		return nil
	}
	return cmd
}
