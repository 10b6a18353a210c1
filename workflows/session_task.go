package workflows

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/persisted"
	"github.com/toolpipe/toolpipe/tool"
)

// takeTask starts a Task block the model activity handed over while the message
// streams (StartTaskUpdate); a block already started is not started again.
func (s *session) takeTask(req StartTaskRequest) {
	if _, started := s.tasks[req.ID]; started || s.tasks == nil {
		return
	}
	tu := conversation.ToolUse{ID: req.ID, Name: tool.TaskName, Input: req.Input}
	s.tasks[req.ID] = s.startTask(s.taskCtx, tu, s.taskPrefix)
}

// validTask accepts a block of the model call now streaming, or one already started
// (a retried call hands its blocks over again).
func (s *session) validTask(req StartTaskRequest) error {
	if _, started := s.tasks[req.ID]; started {
		return nil
	}
	if req.ID == "" {
		return errors.New("the Task block has no id")
	}
	if s.tasks == nil || s.phase != PhaseModel || req.TurnID != s.turnID {
		return fmt.Errorf("turn %q is not streaming in this session (now %q, phase %s): the Task block %s belongs to no running model call",
			req.TurnID, s.turnID, s.phase, req.ID)
	}
	return nil
}

// startTask runs a Task tool call as a child Session (a sub-agent) and returns a
// future that always settles with its tool_result. A fresh sub-agent starts with the
// task's prompt alone; a fork starts from the conversation its parent sent the model
// (prefix) with a clone of the parent's budget state, so it makes the parent's
// decisions on that prefix; a resumed one continues an earlier sub-agent, whose state
// it reconstructs from its records.
func (s *session) startTask(ctx workflow.Context, tu conversation.ToolUse, prefix conversation.Conversation) workflow.Future {
	f, settle := workflow.NewFuture(ctx)
	fail := func(msg string) workflow.Future {
		settle.Set(tool.ErrorResult(tu.ID, msg), nil)
		return f
	}
	in, err := tool.ParseTask(tu.Input)
	if err != nil {
		return fail(err.Error())
	}
	if s.in.Depth >= s.opts.MaxDepth {
		return fail(fmt.Sprintf("Error: sub-agents may nest at most %d deep", s.opts.MaxDepth))
	}
	child := SessionInput{
		SessionID: AgentID(s.in.SessionID, tu.ID), Prompt: in.Prompt, Workdir: s.in.Workdir,
		Model: s.in.Model, Options: s.in.Options, Settings: s.in.Settings, Depth: s.in.Depth + 1,
		MCP: s.in.MCP, SearchAttributes: s.in.SearchAttributes, FailedCallsAttribute: s.in.FailedCallsAttribute,
		Place: s.in.Place, Placement: s.in.Placement, // the parent's host: its workspace
	}
	switch {
	case in.Resume != "":
		if err := persisted.ValidateName("agent id", in.Resume); err != nil {
			return fail(tool.InputValidationError + ": " + err.Error())
		}
		child.SessionID, child.Inherited = in.Resume, s.state.Clone()
	case in.Fork:
		child.Fork = &Fork{Conversation: prefix, State: s.state.Clone()}
	}
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:    fmt.Sprintf("%s/task-%s", workflow.GetInfo(ctx).WorkflowExecution.ID, tu.ID),
		StaticSummary: "Sub-agent: " + in.Description,
	})
	run := workflow.ExecuteChildWorkflow(cctx, SessionWorkflowName, child)
	workflow.Go(ctx, func(ctx workflow.Context) {
		var res SessionResult
		if err := run.Get(ctx, &res); err != nil {
			settle.Set(tool.ErrorResult(tu.ID, "Error: the sub-agent failed: "+failureMessage(err)), nil)
			return
		}
		if res.StopReason == StopModelError {
			settle.Set(tool.ErrorResult(tu.ID, "Error: the sub-agent failed: "+res.Error), nil)
			return
		}
		settle.Set(tool.Result{ToolUseID: tu.ID, Content: taskResult(res, child.SessionID)}, nil)
	})
	return f
}

// AgentID names a sub-agent's conversation after its parent and its Task call: the
// same call always gets the same id, and ids stay short however deep agents nest.
func AgentID(parent, toolUseID string) string {
	sum := sha256.Sum256([]byte(parent + "/" + toolUseID))
	return "agent-" + hex.EncodeToString(sum[:8])
}

// taskResult is what the parent's model sees: the sub-agent's final answer and the
// id that resumes it.
func taskResult(res SessionResult, agent string) string {
	text := res.Text
	if text == "" {
		text = "(the agent finished without a final message)"
	}
	return fmt.Sprintf("%s\n\nagent_id: %s (pass it as resume to continue this agent)", text, agent)
}
