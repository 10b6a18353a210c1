package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/toolpipe/toolpipe/workflows"
)

// A call that would ask (a permission rule, the mode) waits durably in its Turn
// for an Approve or Deny update. toolpipe-claude answers it the way Claude Code's
// headless mode does: with the SDK's canUseTool when the SDK gave one
// (--permission-prompt-tool stdio: a can_use_tool control request), or, with
// nobody to ask, a denial in Claude Code's words. The wait survives this
// process: a process that resumes the session asks again.

// canUseToolAnswer is the SDK's PermissionResult.
type canUseToolAnswer struct {
	Behavior     string          `json:"behavior"`
	UpdatedInput json.RawMessage `json:"updatedInput"`
	Message      string          `json:"message"`
	Interrupt    bool            `json:"interrupt"`
}

// notGranted is what Claude Code tells the model of a call that would ask when
// nobody answers permission prompts.
func notGranted(p workflows.PendingApproval) string {
	var in struct {
		FilePath string `json:"file_path"`
	}
	_ = json.Unmarshal(p.Input, &in)
	if in.FilePath != "" && (p.Tool == "Write" || p.Tool == "Edit") {
		return fmt.Sprintf("Claude requested permissions to write to %s, but you haven't granted it yet.", in.FilePath)
	}
	return fmt.Sprintf("Claude requested permissions to use %s, but you haven't granted it yet.", p.Tool)
}

// approval answers one pending call.
func (f *follower) approval(ctx context.Context, turnID string, p workflows.PendingApproval) {
	deny := func(msg string) {
		if err := f.d.deny(ctx, turnID, workflows.ApprovalRequest{ToolUseID: p.ToolUseID, Message: msg}); err != nil && ctx.Err() == nil {
			f.dr.warnf("denying %s: %v", p.Description, err)
		}
		select {
		case f.answers <- answered{id: p.ToolUseID, denied: true}:
		case <-ctx.Done():
		}
	}
	if !f.p.canAsk {
		msg := notGranted(p)
		// Claude Code tells the SDK of a call refused for want of anyone to ask
		// (SDKPermissionDeniedMessage) before the call's tool_result.
		_ = f.dr.ch.send(map[string]any{"type": "system", "subtype": "permission_denied", "tool_name": p.Tool,
			"tool_use_id": p.ToolUseID, "message": msg, "uuid": newUUID(), "session_id": f.p.session})
		deny(msg)
		return
	}
	req := map[string]any{"subtype": "can_use_tool", "tool_name": p.Tool, "display_name": p.Tool, "input": rawOr(p.Input),
		"tool_use_id": p.ToolUseID, "decision_reason": p.Reason, "description": p.Description,
		"permission_suggestions": []any{map[string]any{"type": "addRules", "behavior": "allow", "destination": "session",
			"rules": []any{map[string]string{"toolName": p.Tool}}}}}
	if dir := blockedPath(p); dir != "" {
		req["blocked_path"] = dir
	}
	f.dr.state(f.p.session, "requires_action")
	raw, err := f.dr.ch.request(ctx, req)
	f.dr.state(f.p.session, "running")
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		deny(fmt.Sprintf("Permission to use %s was denied: the SDK's canUseTool did not answer (%v).", p.Tool, err))
		return
	}
	var a canUseToolAnswer
	if err := json.Unmarshal(raw, &a); err != nil || (a.Behavior != "allow" && a.Behavior != "deny") {
		deny(fmt.Sprintf("Permission to use %s was denied: canUseTool's answer is not {behavior: \"allow\"|\"deny\"}: %s", p.Tool, raw))
		return
	}
	if a.Behavior == "deny" {
		msg := a.Message
		if msg == "" {
			msg = "The user denied permission to use " + p.Tool + "."
		}
		deny(msg)
		if a.Interrupt {
			_ = f.d.interrupt(ctx, f.p.session)
			f.p.interrupted.Store(true)
		}
		return
	}
	in := a.UpdatedInput
	if string(in) == "null" {
		in = nil
	}
	if err := f.d.approve(ctx, turnID, workflows.ApprovalRequest{ToolUseID: p.ToolUseID, UpdatedInput: in}); err != nil && ctx.Err() == nil {
		f.dr.warnf("approving %s: %v", p.Description, err)
	}
	select {
	case f.answers <- answered{id: p.ToolUseID}:
	case <-ctx.Done():
	}
}

// blockedPath is the file a file tool's call would change, for can_use_tool.
func blockedPath(p workflows.PendingApproval) string {
	var in struct {
		FilePath string `json:"file_path"`
	}
	_ = json.Unmarshal(p.Input, &in)
	if in.FilePath != "" && filepath.IsAbs(in.FilePath) {
		return in.FilePath
	}
	return ""
}

func rawOr(r json.RawMessage) json.RawMessage {
	if len(r) == 0 {
		return json.RawMessage("{}")
	}
	return r
}
