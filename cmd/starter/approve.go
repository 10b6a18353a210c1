package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/workflows"
)

// quietPoll is how often approve checks whether the work it unblocked is done.
const quietPoll = 200 * time.Millisecond

func approveCmd() *cobra.Command { return answerCmd(workflows.ApproveUpdate) }

func denyCmd() *cobra.Command { return answerCmd(workflows.DenyUpdate) }

// answerCmd is `starter approve` or `starter deny`: it answers a tool call that waits
// for approval (DESIGN §5). In embedded mode the command runs the turn's worker while
// it lives, so after approving it waits until the turn finishes or waits for
// approval again: leaving earlier would kill the approved tool with the worker.
func answerCmd(update string) *cobra.Command {
	verb := strings.ToLower(update)
	var reason string
	cmd := &cobra.Command{
		Use:   verb + " WORKFLOW_ID TOOL_USE_ID",
		Short: map[string]string{workflows.ApproveUpdate: "Let a tool call that waits for approval run", workflows.DenyUpdate: "Refuse a tool call that waits for approval"}[update],
		Long: `Answer a tool call that waits for approval (a permissions.ask rule, the permission
mode, or a PreToolUse hook asked). ` + "`starter status WORKFLOW_ID`" + ` lists the calls waiting.
With deny, --reason is passed to the model.`,
		Args: exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := connectOnly(cmd)
			if err != nil {
				return err
			}
			defer e.close()
			d, err := e.describe(cmd.Context(), args[0], "turn") // closed.go: none is bad input
			if err != nil {
				return err
			}
			if how, at, closed := closure(d); closed {
				return badInput("turn %s has finished (%s at %s): no call of it waits for approval any more", args[0], how, at.Local().Format(time.RFC3339))
			}
			// A turn whose starter exited resumes here: the answer needs its worker.
			serving, err := e.adopt(cmd.Context(), args[0], "turn", d.GetExecutionConfig().GetTaskQueue().GetName(), false)
			if err != nil {
				return err
			}
			p, err := e.answer(cmd.Context(), update, args[0], args[1], reason)
			if err != nil {
				return err
			}
			done := map[string]string{workflows.ApproveUpdate: "approved", workflows.DenyUpdate: "denied"}[update]
			fmt.Fprintf(cmd.OutOrStdout(), "%s %s %s in %s\n", done, p.ToolUseID, p.Description, args[0])
			if serving {
				fmt.Fprintln(cmd.ErrOrStderr(), "starter: this process runs the turn's worker: waiting until the turn finishes or waits for approval again")
				return e.waitQuiet(cmd.Context(), args[0])
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "a note for the record; with deny, the model is told it")
	config.AddFlags(cmd.Flags(), config.KeyStateDir, config.KeyTaskQueue, config.KeyLogLevel)
	addEmbeddedDefaults(cmd)
	return cmd
}

// answer approves or denies the call through the Go API. A turn or call that does
// not exist or does not wait is the user's mistake (exit 2).
func (e *env) answer(ctx context.Context, update, id, toolUseID, reason string) (toolpipe.PendingApproval, error) {
	t := e.api.Turn(id)
	var p toolpipe.PendingApproval
	var err error
	if update == workflows.ApproveUpdate {
		p, err = t.Approve(ctx, toolUseID)
	} else {
		p, err = t.Deny(ctx, toolUseID, reason)
	}
	switch {
	case err == nil:
		return p, nil
	case toolpipe.IsNotFound(err):
		return p, badInput("no turn %s: %v", id, err)
	case toolpipe.IsNotAwaitingApproval(err):
		return p, badInput("%v", err)
	}
	return p, fmt.Errorf("%s %s in %s: %w", strings.ToLower(update), toolUseID, id, err)
}

// waitQuiet returns once the turn has closed, or no tool of it runs except calls
// waiting for approval: then nothing is lost when this process and its worker go.
func (e *env) waitQuiet(ctx context.Context, id string) error {
	for {
		if e.closed(ctx, id) {
			return nil
		}
		if st, err := e.api.Turn(id).State(ctx); err == nil && quiet(st) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(quietPoll):
		}
	}
}

// quiet: no tool is executing other than those waiting for approval.
func quiet(st toolpipe.TurnState) bool {
	for _, x := range st.Tools {
		if x.Status == toolpipe.StatusExecuting {
			return false
		}
	}
	return true
}

// printApprovals lists the calls waiting for approval under `starter status`.
func printApprovals(w io.Writer, id string, st toolpipe.TurnState) {
	if len(st.Pending) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%d call(s) waiting for approval:\n", len(st.Pending))
	for _, p := range st.Pending {
		printPending(w, id, p)
	}
}
