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

// pipeline takes the call through the turn's gate (turn_gate.go) and returns the
// tool's result and context modifier, and whether the call ran, was refused, or was
// cancelled before it produced a result.
func (t *turn) pipeline(ctx workflow.Context, b tool.Block, def *tool.Definition) (tool.Result, *tool.Modifier, callOutcomeKind) {
	c := &gatedCall{block: b, def: def, input: b.Input}
	for _, s := range t.steps {
		if err := s.before(ctx, c); err != nil {
			return tool.Result{}, nil, callCancelled
		}
		if c.refusal != nil {
			return *c.refusal, nil, callRefused
		}
	}
	c.start = workflow.Now(ctx)
	r, m, resp, cancelled := t.callTool(ctx, c.running(), def, c.v)
	if cancelled {
		for i := len(t.steps) - 1; i >= 0; i-- {
			t.steps[i].interrupted(ctx, c)
		}
		return r, nil, callCancelled
	}
	c.result, c.response = r, resp
	for i := len(t.steps) - 1; i >= 0; i-- {
		t.steps[i].after(ctx, c)
	}
	return c.result, m, callRan
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
	call := t.call(b, v)
	if isBackgroundCall(b) {
		r, resp := t.background(ctx, b, call) // the session runs it (turn_background.go)
		return r, nil, resp, false
	}
	// Retries are judged on the input that runs: a hook may have rewritten a
	// read-only command into one with side effects.
	retryable := def.Retryable(b.Input)
	fut := t.execute(ctx, def, b, call, retryable)
	var out tool.Output
	waitCtx, _ := workflow.NewDisconnectedContext(ctx)
	err := fut.Get(waitCtx, &out)
	if o, ok := toolErrorOutput(err); ok {
		out = o // for the Response below; callOutcome reads it from err too
	}
	r, m, cancelled := callOutcome(b.ID, out, err, retryable)
	return r, m, out.Response, cancelled
}
