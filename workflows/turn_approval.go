package workflows

import (
	"encoding/json"
	"fmt"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/tool"
)

// gateState is the turn's state of the hook and permission pipeline. Like the rest
// of the turn it is rebuilt on replay from the same events.
type gateState struct {
	// pending are the calls waiting for approval, by tool_use id.
	pending     map[string]*pendingAsk
	notices     []Notice
	stop        bool
	stopReasons []string
}

// pendingAsk is one call waiting for an Approve or Deny update.
type pendingAsk struct {
	info     PendingApproval
	answered bool
	approved bool
	reason   string
	// message replaces the denial's text; input replaces the approved call's
	// input (ApprovalRequest.Message, UpdatedInput).
	message string
	input   json.RawMessage
}

// ask waits durably for a person to approve or deny a call: the wait is workflow
// state and a timer, so it survives worker restarts, and only this tool waits
// (siblings keep running as the scheduling rule allows). No answer within the ask
// timeout is a denial. It returns an error only when the tool's context was
// cancelled (an interrupt, the Bash cascade), which ends the wait too.
func (t *turn) ask(ctx workflow.Context, b tool.Block, reason string) (verdict, error) {
	timeout := t.in.Settings.AskTimeout
	if timeout <= 0 {
		timeout = DefaultAskTimeout
	}
	now := workflow.Now(ctx)
	p := &pendingAsk{info: PendingApproval{
		ToolUseID: b.ID, Tool: b.Name, Description: t.describe(b), Reason: reason, Input: b.Input,
		Since: now, Deadline: now.Add(timeout),
	}}
	if t.gate.pending == nil {
		t.gate.pending = map[string]*pendingAsk{}
	}
	t.gate.pending[b.ID] = p
	t.publish()
	workflow.GetLogger(ctx).Info("waiting for approval", "tool_use_id", b.ID, "call", p.info.Description, "reason", reason)
	answered, err := workflow.AwaitWithTimeout(ctx, timeout, func() bool { return p.answered })
	delete(t.gate.pending, b.ID)
	t.publish()
	switch {
	case err != nil:
		return verdict{}, err
	case !answered:
		return verdict{message: fmt.Sprintf("Permission to use %s was denied: it needed approval (%s) and nobody answered within %s.",
			p.info.Description, strings.TrimSuffix(reason, "."), timeout)}, nil
	case p.approved:
		return verdict{allowed: true, input: p.input}, nil
	case p.message != "":
		return verdict{message: p.message}, nil
	}
	msg := "The user denied permission to use " + p.info.Description + ", so it was not run."
	if p.reason != "" {
		msg += " The user said: " + p.reason
	}
	return verdict{message: msg}, nil
}

// registerApprovals installs the Approve and Deny updates. They exist on every
// turn (registering a handler adds nothing to history); their validator refuses an
// id that is not waiting, so a late or mistyped answer is rejected without a trace.
func (t *turn) registerApprovals(ctx workflow.Context) error {
	for _, u := range []struct {
		name, desc string
		approve    bool
	}{
		{ApproveUpdate, "Let a tool call that waits for approval run.", true},
		{DenyUpdate, "Refuse a tool call that waits for approval; the reason is passed to the model.", false},
	} {
		approve := u.approve
		err := workflow.SetUpdateHandlerWithOptions(ctx, u.name,
			func(ctx workflow.Context, req ApprovalRequest) (PendingApproval, error) {
				p := t.gate.pending[req.ToolUseID]
				p.answered, p.approved, p.reason = true, approve, req.Reason
				if approve {
					p.input = req.UpdatedInput
				} else {
					p.message = req.Message
				}
				return p.info, nil
			},
			workflow.UpdateHandlerOptions{
				Validator: func(ctx workflow.Context, req ApprovalRequest) error {
					if p, ok := t.gate.pending[req.ToolUseID]; ok && !p.answered {
						return nil
					}
					return rejection(ErrNotAwaitingApproval, "tool_use %q is not waiting for approval; waiting: %s", req.ToolUseID, t.pendingIDs())
				},
				Description: u.desc,
			})
		if err != nil {
			return fmt.Errorf("turn: %w", err)
		}
	}
	return nil
}

// pendingList returns the calls waiting for approval in arrival order (never map
// order: the State query's answer must not vary).
func (t *turn) pendingList() []PendingApproval {
	var out []PendingApproval
	for _, x := range t.tracker.Tools() {
		if p, ok := t.gate.pending[x.Block.ID]; ok && !p.answered {
			out = append(out, p.info)
		}
	}
	return out
}

func (t *turn) pendingIDs() string {
	var ids []string
	for _, p := range t.pendingList() {
		ids = append(ids, p.ToolUseID)
	}
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// awaitingApproval reports whether the tool with id waits for an answer.
func (t *turn) awaitingApproval(id string) bool {
	p, ok := t.gate.pending[id]
	return ok && !p.answered
}

// describe names a call for people: by its tool (tool.Definition.Describe), or by
// its fields for a tool the turn does not have.
func (t *turn) describe(b tool.Block) string {
	if def, ok := t.lookup(b.Name); ok {
		return def.Describe(b.Input)
	}
	return tool.Describe(b)
}
