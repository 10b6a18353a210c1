package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/workflows"
)

// agentAnswerCmd answers a session's waiting AskUserQuestion call from any
// terminal, whether or not the process that started the session still runs.
func agentAnswerCmd() *cobra.Command {
	var id, response string
	cmd := sessionCmd("answer SESSION [ANSWER...]", "Answer the questions a session's model asks (AskUserQuestion): one ANSWER per question, an option's number or label, or your own words", 1,
		func(e *env, cmd *cobra.Command, wfID string, args []string) error {
			// A session whose starter exited is paused: the answer needs its worker,
			// which this process runs until the answer is in (queues.go).
			d, err := e.conn.Client.DescribeWorkflowExecution(cmd.Context(), wfID, "")
			if err != nil {
				return fmt.Errorf("answer %s: %w", wfID, err)
			}
			serving, err := e.adopt(cmd.Context(), wfID, "session", d.GetExecutionConfig().GetTaskQueue().GetName(), false)
			if err != nil {
				return err
			}
			req := workflows.AnswerRequest{ToolUseID: id, Response: response, Answers: map[string]string{}}
			for i, a := range args {
				if strings.TrimSpace(a) != "" { // "" skips a question
					req.Answers[fmt.Sprint(i+1)] = a
				}
			}
			h, err := e.conn.Client.UpdateWorkflow(cmd.Context(), client.UpdateWorkflowOptions{
				WorkflowID: wfID, UpdateName: workflows.AnswerUpdate, WaitForStage: client.WorkflowUpdateStageCompleted,
				Args: []any{req},
			})
			var resp workflows.AnswerResponse
			if err == nil {
				err = h.Get(cmd.Context(), &resp)
			}
			if err != nil {
				return fmt.Errorf("answer %s: %w (`starter agent status %s` lists the questions that wait)", wfID, err, strings.TrimPrefix(wfID, "session-"))
			}
			fmt.Fprintf(cmd.OutOrStdout(), "answered %s: the model reads: %s\n", resp.ToolUseID, resp.Result)
			if serving {
				session := strings.TrimPrefix(wfID, "session-")
				fmt.Fprintf(cmd.ErrOrStderr(), "starter: no process ran session %s: it goes on when `starter agent --session %s` attaches\n", session, session)
			}
			return nil
		})
	cmd.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) < 1 {
			return usageError{fmt.Errorf("answer takes SESSION, then one ANSWER per question (or --response TEXT)")}
		}
		return nil
	}
	cmd.Flags().StringVar(&id, "id", "", "the tool_use id of the call to answer, when several wait")
	cmd.Flags().StringVar(&response, "response", "", "a reply in your own words instead of answers")
	return cmd
}

// printQuestions shows the waiting questions and how to answer them (agent status).
func printQuestions(out io.Writer, session string, qs []toolpipe.PendingQuestion) {
	for _, q := range qs {
		fmt.Fprintf(out, "question %s waits since %s UTC", q.ToolUseID, q.AskedAt.UTC().Format("2006-01-02 15:04:05"))
		if !q.Deadline.IsZero() {
			fmt.Fprintf(out, ", unanswered at %s UTC", q.Deadline.UTC().Format("15:04:05"))
		}
		fmt.Fprintln(out, ":")
		for i, qq := range q.Questions {
			fmt.Fprintf(out, "  %d. [%s] %s\n", i+1, qq.Header, qq.Question)
			for j, o := range qq.Options {
				fmt.Fprintf(out, "     (%d) %s — %s\n", j+1, o.Label, o.Description)
			}
		}
		fmt.Fprintf(out, "  answer: starter agent answer %s --id %s ANSWER... (one per question: an option's number or label, or your own words)\n", session, q.ToolUseID)
	}
}
