package workflows

import (
	"encoding/json"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/tool"
)

// BackgroundSignal carries a turn's BackgroundAsk to its parent session, which owns
// the background tasks: they outlive the turn that started them.
const BackgroundSignal = "background-task"

// BackgroundAsk asks a session to start a background command or to stop a task.
type BackgroundAsk struct {
	// TurnID is the asking turn's workflow id: the reply is signalled to it.
	TurnID    string    `json:"turn_id"`
	ToolUseID string    `json:"tool_use_id"`
	Call      tool.Call `json:"call"`
	// Stop is the id of the task to stop (TaskStop); empty: start Call.
	Stop string `json:"stop,omitempty"`
}

// BackgroundReply is the session's answer: the call's result.
type BackgroundReply struct {
	Content string `json:"content"`
	IsError bool   `json:"is_error,omitempty"`
	// Response is the call's tool_response for PostToolUse hooks.
	Response json.RawMessage `json:"response,omitempty"`
}

// backgroundReplySignal is the signal that answers one call of a turn.
func backgroundReplySignal(toolUseID string) string { return "background-reply/" + toolUseID }

// noSessionBackground is the result of run_in_background in a turn without a
// session (`starter run`): the turn ends when its calls do, and nothing would be
// left to run the command on or to tell the model when it ends.
const noSessionBackground = "run_in_background needs an agent session (starter agent): a turn run on its own ends with its calls, so nothing would tell you when the command ends. Run it in the foreground, or start it detached yourself (nohup … &) and check on it later."

// isBackgroundCall: the session, not a tool activity, answers this call.
func isBackgroundCall(b tool.Block) bool {
	return b.Name == tool.TaskStopName || tool.IsBackgroundBash(b)
}

// legacyBackground answers a background call in a turn from before
// backgroundShells as that turn did, and says whether it did.
func (t *turn) legacyBackground(b tool.Block) (tool.Result, bool) {
	if !isBackgroundCall(b) || workflow.GetVersion(t.siblingCtx, backgroundShells, workflow.DefaultVersion, 1) >= 1 {
		return tool.Result{}, false
	}
	if b.Name == tool.TaskStopName {
		return tool.ErrorResult(b.ID, tool.UseError("Error: No such tool available: "+b.Name)), true
	}
	return tool.ErrorResult(b.ID, tool.UseError(tool.InputValidationError+": Bash failed due to the following issue:\nAn unexpected parameter `run_in_background` was provided")), true
}

// refuseBackground answers a background call of a turn that has no session
// (`starter run`) as a refused input: it ran nothing, so it cancels no sibling.
func (t *turn) refuseBackground(b tool.Block) (tool.Result, bool) {
	if !isBackgroundCall(b) || workflow.GetInfo(t.siblingCtx).ParentWorkflowExecution != nil {
		return tool.Result{}, false
	}
	if b.Name == tool.TaskStopName {
		var in tool.TaskStopInput
		if json.Unmarshal(b.Input, &in) != nil || in.ID() == "" {
			return tool.Result{}, false // validation says what is wrong
		}
		return tool.ErrorResult(b.ID, tool.UseError("No task found with ID: "+in.ID())), true
	}
	return tool.ErrorResult(b.ID, noSessionBackground), true
}

// startBackground answers a background call of a turn without settings, beside
// the other calls as start does for a tool activity.
func (t *turn) startBackground(b tool.Block, call tool.Call) {
	workflow.Go(t.siblingCtx, func(ctx workflow.Context) {
		r, _ := t.background(ctx, b, call)
		t.complete(b.ID, r, nil)
	})
}

// background hands a background call to the session and waits for its answer: the
// task id and output file of a command it started, or the outcome of a TaskStop
// (which waits until the task's processes are gone). The wait ignores the turn's
// cancellation: once asked, the session may have started the command, and the
// result must say so.
func (t *turn) background(ctx workflow.Context, b tool.Block, call tool.Call) (tool.Result, json.RawMessage) {
	ask := BackgroundAsk{TurnID: workflow.GetInfo(ctx).WorkflowExecution.ID, ToolUseID: b.ID, Call: call}
	if b.Name == tool.TaskStopName {
		var in tool.TaskStopInput
		_ = json.Unmarshal(b.Input, &in) // validated
		ask.Stop = in.ID()
	}
	parent := workflow.GetInfo(ctx).ParentWorkflowExecution
	if parent == nil { // refuseBackground answered it before; a hook may have rewritten the input since
		return tool.ErrorResult(b.ID, noSessionBackground), nil
	}
	wctx, _ := workflow.NewDisconnectedContext(ctx)
	if err := workflow.SignalExternalWorkflow(wctx, parent.ID, "", BackgroundSignal, ask).Get(wctx, nil); err != nil {
		return tool.ErrorResult(b.ID, "Error: the session could not be reached: "+failureMessage(err)), nil
	}
	var reply BackgroundReply
	workflow.GetSignalChannel(wctx, backgroundReplySignal(b.ID)).Receive(wctx, &reply)
	return tool.Result{ToolUseID: b.ID, Content: reply.Content, IsError: reply.IsError}, reply.Response
}
