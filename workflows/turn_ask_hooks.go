package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/tool"
)

// Turns from before these events could not have their hooks: the settings loader
// ignored PermissionRequest and Notification, so no recorded turn reaches the
// activities below, and they need no GetVersion of their own.

// askWithHooks is the permission step's ask: PermissionRequest hooks may answer it
// (allow or deny, as Claude Code lets them answer its dialog); when none does, the
// call waits for a person and Notification hooks are told that an approval waits.
func (t *turn) askWithHooks(ctx workflow.Context, b tool.Block, reason string) (verdict, error) {
	if cmds := t.in.Settings.Hooks.Select(hooks.PermissionRequest, b.Name); len(cmds) > 0 {
		def, _ := t.lookup(b.Name) // known: only a known tool's call asks
		in := t.hookInput(ctx, hooks.PermissionRequest)
		in.ToolName, in.ToolInput, in.ToolUseID = b.Name, def.HookInput(b.Input), b.ID
		in.PermissionSuggestions = suggestions(b)
		res, err := t.runHooks(ctx, hooks.PermissionRequest, b.ID, cmds, in)
		if err != nil {
			return verdict{}, err
		}
		t.notePhase(ctx, b.ID, b.Name, res)
		switch res.Decision {
		case hooks.Deny:
			msg := "Permission to use " + t.describe(b) + " was denied by a PermissionRequest hook."
			if res.Reason != "" {
				msg += " " + res.Reason
			}
			return verdict{message: msg}, nil
		case hooks.Allow:
			return verdict{allowed: true}, nil
		}
	}
	if cmds := t.in.Settings.Hooks.Select(hooks.Notification, "permission_prompt"); len(cmds) > 0 {
		in := t.hookInput(ctx, hooks.Notification)
		in.Message = "Claude needs your permission to use " + b.Name
		in.NotificationType = "permission_prompt"
		// The wait starts at once: a notification hook is told, it does not decide.
		workflow.Go(ctx, func(ctx workflow.Context) {
			if res, err := t.runHooks(ctx, hooks.Notification, b.ID, cmds, in); err == nil {
				t.notePhase(ctx, b.ID, b.Name, res)
			}
		})
	}
	return t.ask(ctx, b, reason)
}

// suggestions is permission_suggestions: the rule that would allow this tool for
// the session, in Claude Code's shape.
func suggestions(b tool.Block) []hooks.PermissionSuggestion {
	return []hooks.PermissionSuggestion{{Type: "addRules", Behavior: "allow", Destination: "session",
		Rules: []hooks.PermissionRuleValue{{ToolName: b.Name}}}}
}
