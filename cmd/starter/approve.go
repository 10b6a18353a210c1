package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/scheduler"
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
			e, err := connect(cmd)
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
			serving, err := e.adopt(cmd.Context(), args[0], "turn")
			if err != nil {
				return err
			}
			p, err := e.answer(cmd.Context(), update, args[0], workflows.ApprovalRequest{ToolUseID: args[1], Reason: reason})
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

// answer sends the Approve or Deny update. A turn or call that does not exist or
// does not wait is the user's mistake (exit 2).
func (e *env) answer(ctx context.Context, update, id string, req workflows.ApprovalRequest) (workflows.PendingApproval, error) {
	var p workflows.PendingApproval
	h, err := e.conn.Client.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: id, UpdateName: update, Args: []any{req}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err == nil {
		err = h.Get(ctx, &p)
	}
	var notFound *serviceerror.NotFound
	switch {
	case err == nil:
		return p, nil
	case errors.As(err, &notFound):
		return p, badInput("no turn %s: %v", id, err)
	case workflows.Rejected(err, workflows.ErrNotAwaitingApproval):
		return p, badInput("%v", err)
	}
	return p, fmt.Errorf("%s %s in %s: %w", strings.ToLower(update), req.ToolUseID, id, err)
}

// waitQuiet returns once the turn has closed, or no tool of it runs except calls
// waiting for approval: then nothing is lost when this process and its worker go.
func (e *env) waitQuiet(ctx context.Context, id string) error {
	for {
		d, err := e.conn.Client.DescribeWorkflowExecution(ctx, id, "")
		if err != nil {
			return fmt.Errorf("describe %s: %w", id, err)
		}
		if d.WorkflowExecutionInfo.Status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
			return nil
		}
		if st, err := queryState(ctx, e.reader(), id); err == nil && quiet(st) {
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
func quiet(st workflows.TurnState) bool {
	for _, x := range st.Tools {
		if x.Status == scheduler.Executing {
			return false
		}
	}
	return true
}

// printApprovals lists the calls waiting for approval under `starter status`.
func printApprovals(w io.Writer, id string, st workflows.TurnState) {
	if len(st.Pending) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%d call(s) waiting for approval:\n", len(st.Pending))
	for _, p := range st.Pending {
		printPending(w, id, p)
	}
}
