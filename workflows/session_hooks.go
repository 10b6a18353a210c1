package workflows

import (
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/wire"
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
	if e != hooks.SessionStart {
		in.PromptID = s.promptID(ctx) // session_prompt_id.go
	}
	if e != hooks.SessionStart && e != hooks.SessionEnd {
		in.PermissionMode = "default"
		if p := s.in.Settings.Permissions; p != nil {
			in.PermissionMode = p.Mode.String()
		}
	}
	fill(&in)
	env := hookEnv{settings: s.in.Settings, workdir: s.in.Workdir, sessionID: s.in.SessionID,
		heartbeat: s.opts.Turn.withDefaults().HeartbeatTimeout, queue: s.toolQueue()}
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
	if msg, ok := s.sessionStartContext(ctx, source); ok {
		s.pendingUser = append(s.pendingUser, msg)
	}
}

// afterCompact runs SessionStart hooks with source "compact" once a compaction has
// replaced the conversation, as Claude Code does; what they add as context is stored
// right after the summary, so the next model call has it. Messages queued meanwhile
// stay queued (their UserPromptSubmit hooks have not run yet).
func (s *session) afterCompact(ctx workflow.Context) error {
	if len(s.sessionHooks(hooks.SessionStart, "compact")) == 0 ||
		workflow.GetVersion(ctx, sessionStartCompact, workflow.DefaultVersion, 1) < 1 {
		return nil
	}
	msg, ok := s.sessionStartContext(ctx, "compact")
	if !ok {
		return nil
	}
	queued, checked, results := s.pendingUser, s.checkedUser, s.pendingResults
	s.pendingUser, s.checkedUser, s.pendingResults = []conversation.Message{msg}, 1, nil
	err := s.appendPending(ctx)
	// What arrived during the append (kept by appendPending) queues after the rest.
	s.pendingUser, s.checkedUser, s.pendingResults = append(queued, s.pendingUser...), checked, results
	return err
}

// sessionStartContext runs the SessionStart hooks that match source and returns
// the message carrying the context they add, if any.
func (s *session) sessionStartContext(ctx workflow.Context, source string) (conversation.Message, bool) {
	cmds := s.sessionHooks(hooks.SessionStart, source)
	if len(cmds) == 0 {
		return conversation.Message{}, false
	}
	res := s.runSessionHooks(ctx, hooks.SessionStart, cmds, func(in *hooks.Input) { in.Source = source })
	if len(res.Context) == 0 {
		return conversation.Message{}, false
	}
	return conversation.UserText("<system-reminder>\nSessionStart hook additional context: " +
		strings.Join(res.Context, "\n") + "\n</system-reminder>"), true
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
		in.BackgroundTasks = s.runningTasks() // session_background.go
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

// userPromptHooks runs UserPromptSubmit hooks on each user message queued since
// the last check (not on what hooks themselves added). A hook that blocks (decision
// "block" or exit 2) erases the message, as Claude Code does, and the user is told
// why; additionalContext (or a hook's plain stdout, as Claude Code treats it for
// this event) is added to the message. When every new message was blocked and no
// tool results wait either, the session stops rather than call the model with
// nothing new.
func (s *session) userPromptHooks(ctx workflow.Context) {
	// Messages that arrive while the hooks run are checked in the next round.
	for s.userPromptRound(ctx) {
	}
}

// userPromptRound checks the messages queued so far and reports whether more
// arrived meanwhile.
func (s *session) userPromptRound(ctx workflow.Context) (again bool) {
	if s.checkedUser > len(s.pendingUser) {
		s.checkedUser = 0 // the queue was sent meanwhile
	}
	if s.checkedUser == len(s.pendingUser) {
		return false
	}
	cmds := s.sessionHooks(hooks.UserPromptSubmit, "")
	if len(cmds) == 0 {
		s.checkedUser = len(s.pendingUser)
		return false
	}
	queued := len(s.pendingUser)
	kept := s.pendingUser[:s.checkedUser:s.checkedUser]
	var blocked []string
	for _, m := range s.pendingUser[s.checkedUser:] {
		text := messageText(m)
		if strings.HasPrefix(text, "<system-reminder>") || strings.Contains(text, " hook feedback:\n") {
			kept = append(kept, m)
			continue
		}
		res := s.runSessionHooks(ctx, hooks.UserPromptSubmit, cmds, func(in *hooks.Input) { in.Prompt = &text })
		if res.Stop {
			s.stopReason, s.hookReason = StopHook, res.StopReason
		}
		if len(res.Feedback) > 0 {
			reason := strings.Join(res.Feedback, "\n")
			blocked = append(blocked, reason)
			s.note(SessionEvent{Kind: EventNotice, Text: "UserPromptSubmit hook blocked the prompt: " + reason})
			continue
		}
		ctxText := res.Context
		for _, o := range res.Outcomes {
			if o.Status == hooks.Success && o.Text != "" {
				ctxText = append(ctxText, o.Text)
			}
		}
		if len(ctxText) > 0 {
			m = conversation.UserText(text + "\n\n<system-reminder>\nUserPromptSubmit hook additional context: " +
				strings.Join(ctxText, "\n") + "\n</system-reminder>")
		}
		kept = append(kept, m)
	}
	arrived := s.arrivedSince(ctx, queued) // session_arrivals.go
	s.pendingUser, s.checkedUser = append(kept, arrived...), len(kept)
	if len(blocked) > 0 && len(s.pendingUser) == 0 && len(s.pendingResults) == 0 && s.stopReason == "" {
		s.stopReason, s.hookReason = StopHook, "UserPromptSubmit hook blocked the prompt: "+strings.Join(blocked, "\n")
	}
	return len(arrived) > 0
}

// messageText joins a message's text blocks.
func messageText(m conversation.Message) string {
	var b strings.Builder
	for _, c := range m.Content {
		if c.Type == wire.BlockText {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}
