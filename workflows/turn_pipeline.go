package workflows

import (
	"encoding/json"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/tool"
)

// startGated runs the rest of DESIGN §3.8's pipeline for a tool whose input is valid,
// when the turn has hooks or a permission policy: PreToolUse hooks, the permission
// decision (and maybe a durable wait for approval), the call, then PostToolUse or
// PostToolUseFailure hooks. It all runs in one coroutine under the tool's own
// cancellable context, so an interrupt or the Bash cascade stops the tool wherever
// it is in the pipeline.
func (t *turn) startGated(x *scheduler.Tracked, def *tool.Definition) {
	id := x.Block.ID
	ctx, cancel := workflow.WithCancel(t.siblingCtx)
	t.cancels[id] = cancel
	workflow.Go(ctx, func(ctx workflow.Context) {
		r, m, out := t.pipeline(ctx, x.Block, def)
		switch out {
		case callCancelled:
			t.cancelled(id)
		case callRefused:
			t.refused(ctx, id, r) // turn_refused.go
		default:
			t.complete(id, r, m)
		}
	})
}

// callOutcomeKind says how a call's pipeline ended.
type callOutcomeKind int

const (
	// callRan: the tool ran and r is its result.
	callRan callOutcomeKind = iota
	// callRefused: the call never ran (denied, or a hook rewrote its input into one
	// that fails validation); r says why.
	callRefused
	// callCancelled: the call's context was cancelled before it produced a result.
	callCancelled
)

// pipeline returns the tool's result and context modifier, and whether the call ran,
// was refused, or was cancelled before it produced a result.
func (t *turn) pipeline(ctx workflow.Context, b tool.Block, def *tool.Definition) (r tool.Result, m *tool.Modifier, out callOutcomeKind) {
	id := b.ID
	pre, err := t.runPhase(ctx, hooks.PreToolUse, b, b.Input, nil)
	if err != nil {
		return r, nil, callCancelled
	}
	t.notePhase(ctx, id, b.Name, pre)
	input := b.Input
	if len(pre.UpdatedInput) > 0 && pre.Decision != hooks.Deny {
		// updatedInput replaces the whole input and passes the same checks the
		// model's input did; the permission decision below sees the new input.
		updated := pre.UpdatedInput
		if t.repair {
			updated, _ = def.Repair(updated)
		}
		if err := t.validate(def, updated); err != nil {
			return tool.ErrorResult(id, tool.UseError(err.Error()+" (in the input a PreToolUse hook rewrote)")), nil, callRefused
		}
		input = updated
	}
	v, err := t.permit(ctx, tool.Block{ID: id, Name: b.Name, Input: input}, pre)
	if err != nil {
		return r, nil, callCancelled
	}
	if !v.allowed {
		return tool.ErrorResult(id, hooks.Reminder(v.message, b.Name, pre, hooks.Result{})), nil, callRefused
	}
	if len(v.input) > 0 && string(v.input) != string(input) {
		// The approver's input passes the model's checks too; it is not asked again.
		updated := v.input
		if t.repair {
			updated, _ = def.Repair(updated)
		}
		if err := t.validate(def, updated); err != nil {
			return tool.ErrorResult(id, tool.UseError(err.Error()+" (in the input the approval gave)")), nil, callRefused
		}
		input = updated
	}
	t.transcribeUse(ctx, b) // turn_transcript.go
	start := workflow.Now(ctx)
	r, m, resp, cancelled := t.callTool(ctx, tool.Block{ID: id, Name: b.Name, Input: input}, def, v)
	if cancelled {
		t.interruptHooks(ctx, tool.Block{ID: id, Name: b.Name, Input: input}, start) // turn_hooks.go
		return r, nil, callCancelled
	}
	t.transcribeResult(ctx, r, resp)
	c := called{result: r, response: resp, duration: workflow.Now(ctx).Sub(start)}
	return t.afterCall(ctx, b.Name, input, r, c, pre), m, callRan
}

// afterCall runs the PostToolUse hooks (PostToolUseFailure for an error result) and
// applies what they say. The tool has run: if the hooks are cancelled (a sibling's
// failure, an interrupt), its real result is still reported.
func (t *turn) afterCall(ctx workflow.Context, name string, input json.RawMessage, r tool.Result, c called, pre hooks.Result) tool.Result {
	event := hooks.PostToolUse
	if r.IsError {
		event = hooks.PostToolUseFailure
	}
	post, err := t.runPhase(ctx, event, tool.Block{ID: r.ToolUseID, Name: name, Input: input}, input, &c)
	if err != nil {
		t.notice(r.ToolUseID, string(event)+" hooks were cancelled; the result is the tool's own")
		r.Content = hooks.Reminder(r.Content, name, pre, hooks.Result{})
		return r
	}
	t.notePhase(ctx, r.ToolUseID, name, post)
	if len(post.UpdatedMCPToolOutput) > 0 && tool.IsMCPName(name) {
		r.Content = mcpOutputText(post.UpdatedMCPToolOutput)
	}
	r.Content = hooks.Reminder(r.Content, name, pre, post)
	return r
}

// mcpOutputText is an updatedMCPToolOutput as result text: a JSON string as its
// text, anything else as JSON.
func mcpOutputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// callTool runs the tool activity with the final input and waits for it, as start
// does for a turn without settings. When PostToolUse hooks will see the call, the
// activity also returns the tool's structured response for them.
// v says how the call was allowed: only because it runs sandboxed, or only
// because it was classified read-only.
func (t *turn) callTool(ctx workflow.Context, b tool.Block, def *tool.Definition, v verdict) (tool.Result, *tool.Modifier, json.RawMessage, bool) {
	call := tool.Call{
		SessionID: t.in.SessionID, ToolUseID: b.ID, Name: b.Name,
		Input: b.Input, Workdir: t.in.Workdir, ReadFiles: t.context.ReadFiles, PartialFiles: t.context.PartialFiles,
		Generation: t.in.Generation, // fleet.go
		Scope:      t.searchScope(b.Name),
		Sandbox:    t.in.Settings.sandboxSettings(), SandboxOnly: v.sandboxOnly, ReadOnlySandbox: v.readOnly,
		Response:    len(t.in.Settings.Hooks.Select(hooks.PostToolUse, b.Name)) > 0,
		FailOnError: t.showFailures,
	}
	if isBackgroundCall(b) {
		r, resp := t.background(ctx, b, call) // the session runs it (turn_background.go)
		return r, nil, resp, false
	}
	// Retries are judged on the input that runs: a hook may have rewritten a
	// read-only command into one with side effects.
	retryable := def.Retryable(b.Input)
	call.Declared = &tool.Declared{Safe: retryable, MaxResultSizeChars: def.MaxResultSizeChars}
	actx := workflow.WithActivityOptions(ctx, t.activityOptions(b, retryable))
	fut := workflow.ExecuteActivity(actx, activityType(b.Name), call)
	var out tool.Output
	waitCtx, _ := workflow.NewDisconnectedContext(ctx)
	err := fut.Get(waitCtx, &out)
	if o, ok := toolErrorOutput(err); ok {
		out = o // for the Response below; callOutcome reads it from err too
	}
	r, m, cancelled := callOutcome(b.ID, out, err, retryable)
	return r, m, out.Response, cancelled
}
