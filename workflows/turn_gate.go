package workflows

import (
	"encoding/json"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/tool"
)

// A call's gate (DESIGN §3.8) is an ordered list of steps, as Nomad's task runner
// runs its list of runner hooks: each step runs before the call, in the list's
// order, and may change the call (the input a hook rewrote, how it was allowed)
// or refuse it; once the call has run, each runs after it in the reverse order,
// and for a call cancelled while it ran, each is told so in the reverse order.
// The list is the turn's settings' (gateSteps): a turn without settings, or with
// nothing that gates a call, has none and starts its calls directly (start).
//
// The order is the contract recorded histories replay: PreToolUse hooks, the
// permission decision, the approval (a person, PermissionRequest hooks), the
// transcript's tool_use; after the call the transcript's tool_result, then the
// PostToolUse hooks. A new step goes where it decides, behind a change id
// (changes.go) when it schedules anything in a turn recorded before it.
type gateStep interface {
	// before runs ahead of the call. An error is the call's context ending (the
	// call is cancelled); a refusal is set in c.
	before(ctx workflow.Context, c *gatedCall) error
	// after runs once the call ran, and may change its result.
	after(ctx workflow.Context, c *gatedCall)
	// interrupted runs for a call cancelled while it ran.
	interrupted(ctx workflow.Context, c *gatedCall)
}

// gateSteps is the gate of a turn with settings s: none when nothing gates a
// call (TurnSettings.gates).
func gateSteps(t *turn, s *TurnSettings) []gateStep {
	if !s.gates() {
		return nil
	}
	return []gateStep{hookStep{t}, permissionStep{t}, approvalStep{t}, transcriptStep{t}}
}

// gatedCall is one call going through the gate.
type gatedCall struct {
	// block is the call as the model sent it; input is what runs (a PreToolUse
	// hook may have rewritten it).
	block tool.Block
	def   *tool.Definition
	input json.RawMessage
	// pre is what the PreToolUse hooks said; v how the call was allowed.
	pre hooks.Result
	v   verdict
	// refusal, when set, ends the gate: the call never runs.
	refusal *tool.Result
	// start is when the call was scheduled; result and response what it returned.
	start    time.Time
	result   tool.Result
	response json.RawMessage
}

// running is the call with the input that runs.
func (c *gatedCall) running() tool.Block {
	return tool.Block{ID: c.block.ID, Name: c.block.Name, Input: c.input}
}

func (c *gatedCall) refuse(r tool.Result) { c.refusal = &r }

// hookStep runs the PreToolUse hooks before the call, PostToolUse or
// PostToolUseFailure after it, and PostToolUseFailure for an interrupted one.
type hookStep struct{ t *turn }

func (s hookStep) before(ctx workflow.Context, c *gatedCall) error {
	t, id := s.t, c.block.ID
	pre, err := t.runPhase(ctx, hooks.PreToolUse, c.block, c.block.Input, nil)
	if err != nil {
		return err
	}
	t.notePhase(ctx, id, c.block.Name, pre)
	c.pre = pre
	if len(pre.UpdatedInput) > 0 && pre.Decision != hooks.Deny {
		// updatedInput replaces the whole input and passes the same checks the
		// model's input did; the permission decision sees the new input.
		updated := pre.UpdatedInput
		if t.repair {
			updated, _ = c.def.Repair(updated)
		}
		if err := t.validate(c.def, updated); err != nil {
			c.refuse(tool.ErrorResult(id, tool.UseError(err.Error()+" (in the input a PreToolUse hook rewrote)")))
			return nil
		}
		c.input = updated
	}
	return nil
}

func (s hookStep) after(ctx workflow.Context, c *gatedCall) {
	called := called{result: c.result, response: c.response, duration: workflow.Now(ctx).Sub(c.start)}
	c.result = s.t.afterCall(ctx, c.block.Name, c.input, c.result, called, c.pre) // turn_pipeline.go
}

func (s hookStep) interrupted(ctx workflow.Context, c *gatedCall) {
	s.t.interruptHooks(ctx, c.running(), c.start) // turn_hooks.go
}

// permissionStep decides by the hooks' decision, the rules and the mode
// (turn_permission.go); a call that needs a person goes on to the approval.
type permissionStep struct{ t *turn }

func (s permissionStep) before(ctx workflow.Context, c *gatedCall) error {
	v, err := s.t.permit(ctx, c.running(), c.pre)
	if err != nil {
		return err
	}
	c.v = v
	if !v.allowed && !v.ask {
		c.refuse(tool.ErrorResult(c.block.ID, hooks.Reminder(v.message, c.block.Name, c.pre, hooks.Result{})))
	}
	return nil
}

func (permissionStep) after(workflow.Context, *gatedCall)       {}
func (permissionStep) interrupted(workflow.Context, *gatedCall) {}

// approvalStep asks a person (and the PermissionRequest hooks) about a call the
// permission step could not decide, and waits durably for the answer
// (turn_ask_hooks.go, turn_approval.go).
type approvalStep struct{ t *turn }

func (s approvalStep) before(ctx workflow.Context, c *gatedCall) error {
	if !c.v.ask {
		return nil
	}
	v, err := s.t.askWithHooks(ctx, c.running(), c.v.message)
	if err != nil {
		return err
	}
	c.v = v
	if !v.allowed {
		c.refuse(tool.ErrorResult(c.block.ID, hooks.Reminder(v.message, c.block.Name, c.pre, hooks.Result{})))
		return nil
	}
	if len(v.input) > 0 && string(v.input) != string(c.input) {
		// The approver's input passes the model's checks too; it is not asked again.
		updated := v.input
		if s.t.repair {
			updated, _ = c.def.Repair(updated)
		}
		if err := s.t.validate(c.def, updated); err != nil {
			c.refuse(tool.ErrorResult(c.block.ID, tool.UseError(err.Error()+" (in the input the approval gave)")))
			return nil
		}
		c.input = updated
	}
	return nil
}

func (approvalStep) after(workflow.Context, *gatedCall)       {}
func (approvalStep) interrupted(workflow.Context, *gatedCall) {}

// transcriptStep writes the call and its result to the hooks' transcript
// (turn_transcript.go).
type transcriptStep struct{ t *turn }

func (s transcriptStep) before(ctx workflow.Context, c *gatedCall) error {
	s.t.transcribeUse(ctx, c.block)
	return nil
}

func (s transcriptStep) after(ctx workflow.Context, c *gatedCall) {
	s.t.transcribeResult(ctx, c.result, c.response)
}

func (transcriptStep) interrupted(workflow.Context, *gatedCall) {}
