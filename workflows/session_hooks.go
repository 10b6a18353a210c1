package workflows

import (
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/hooks"
)

// The session-level hook events: SessionStart, Stop (SubagentStop in a sub-agent)
// and SessionEnd. Sessions from before these events could not have their hooks (the
// settings loader ignored them), so no recorded session reaches the activities
// below, and they need no GetVersion of their own.

// sessionHooks returns the commands of event e that match what (the event's
// matcher subject), or none when the session has no settings.
func (s *session) sessionHooks(e hooks.Event, what string) []hooks.Command {
	if s.in.Settings == nil {
		return nil
	}
	return s.in.Settings.Hooks.Select(e, what)
}

// runSessionHooks runs cmds with the session's common input fields plus the event's
// own (set by fill), and notes their messages for the user.
func (s *session) runSessionHooks(ctx workflow.Context, e hooks.Event, cmds []hooks.Command, fill func(*hooks.Input)) hooks.Result {
	in := hooks.Input{SessionID: s.in.SessionID, TranscriptPath: s.in.Settings.TranscriptPath, Cwd: s.in.Workdir,
		HookEventName: e}
	if e != hooks.SessionStart && e != hooks.SessionEnd {
		in.PermissionMode = "default"
		if p := s.in.Settings.Permissions; p != nil {
			in.PermissionMode = p.Mode.String()
		}
	}
	fill(&in)
	env := hookEnv{settings: s.in.Settings, workdir: s.in.Workdir, sessionID: s.in.SessionID,
		heartbeat: s.opts.Turn.withDefaults().HeartbeatTimeout}
	res, err := runHookCommands(ctx, env, e, "", cmds, in)
	if err != nil {
		return hooks.Result{Event: e}
	}
	for _, m := range res.Messages {
		s.note(SessionEvent{Kind: EventNotice, Text: m})
	}
	return res
}

// sessionStart runs SessionStart hooks (source startup, or resume when the store
// already had the session); what they add as context goes to the model with the
// first message.
func (s *session) sessionStart(ctx workflow.Context, resumed bool) {
	source := "startup"
	if resumed {
		source = "resume"
	}
	cmds := s.sessionHooks(hooks.SessionStart, source)
	if len(cmds) == 0 {
		return
	}
	res := s.runSessionHooks(ctx, hooks.SessionStart, cmds, func(in *hooks.Input) { in.Source = source })
	if len(res.Context) > 0 {
		s.pendingUser = append(s.pendingUser, conversation.UserText(
			"<system-reminder>\nSessionStart hook additional context: "+strings.Join(res.Context, "\n")+"\n</system-reminder>"))
	}
}

// stopHooks runs Stop hooks (SubagentStop in a sub-agent) when the model has
// ended its turn. A hook that blocks (decision "block" or exit 2) keeps the agent
// going: its reason is the next user message, and the next Stop hooks are told
// stop_hook_active. continue: false ends the session as in any hook.
func (s *session) stopHooks(ctx workflow.Context) {
	if s.stopReason == "" || s.stopReason == StopHook || s.stopReason == StopMaxTurns {
		return
	}
	e := hooks.Stop
	if s.in.Depth > 0 {
		e = hooks.SubagentStop
	}
	cmds := s.sessionHooks(e, "")
	if len(cmds) == 0 {
		return
	}
	active := s.stopHookActive
	last := s.lastText
	res := s.runSessionHooks(ctx, e, cmds, func(in *hooks.Input) {
		in.StopHookActive, in.LastAssistantMessage = &active, &last
	})
	switch {
	case res.Stop:
		s.stopReason, s.hookReason = StopHook, res.StopReason
	case len(res.Feedback) > 0:
		s.stopReason, s.stopHookActive = "", true
		s.addUser(string(e) + " hook feedback:\n" + strings.Join(res.Feedback, "\n"))
		return
	}
	s.stopHookActive = false
}

// sessionEnd runs SessionEnd hooks once the session has stopped; they cannot
// change anything any more.
func (s *session) sessionEnd(ctx workflow.Context) {
	reason := "other"
	if s.stopReason == StopHook {
		reason = "hook_stop"
	}
	if cmds := s.sessionHooks(hooks.SessionEnd, reason); len(cmds) > 0 {
		s.runSessionHooks(ctx, hooks.SessionEnd, cmds, func(in *hooks.Input) { in.Reason = reason })
	}
}
