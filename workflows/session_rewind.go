package workflows

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/tool"
)

// A session's history, rewinds and forks (DESIGN §3.9). Every model call leaves a
// mark in the store (RecordTurn): what it answered and did, and the conversation
// just before it and once its results were in. A rewind moves the session's head
// to one of those points (RewindUpdate, the store's RewindSession); a fork starts
// another session's head there (ForkSession). The turns after the point stay in
// the store and in history: a rewind is undone by rewinding to LATEST.

// RewindUpdate takes the session's conversation back to a turn (RewindArgs). A
// running prompt is interrupted first and ends (as contract.InterruptPromptSignal ends it);
// the rewind is applied once its last results are stored. A session that is not
// running is sent the update with the start of a run that does nothing else
// (SessionInput.Control): the update is how every rewind is recorded, with who
// asked and when.
const RewindUpdate = "Rewind"

// Stop reasons of the runs that only rewind or fork (SessionInput.Control).
const (
	StopRewound = "rewound"
	StopForked  = "forked"
)

// EventRewind: the conversation was rewound (Text says to where and by whom).
const EventRewind = "rewind"

// MemoParentSession and MemoForkedAt are the memo keys of a fork's runs: the
// session it was forked from and the turn (the UI shows memos in a run's details).
const (
	MemoParentSession = "parent_session"
	MemoForkedAt      = "forked_at"
)

// SessionControl is the input of a run that calls no model: it serves one
// RewindUpdate sent with its start (Rewind), or makes this session a fork of
// another's conversation (Fork).
type SessionControl struct {
	Rewind bool      `json:"rewind,omitempty"`
	Fork   *ForkFrom `json:"fork,omitempty"`
}

// ForkFrom names the session and the point a fork starts from.
type ForkFrom struct {
	Parent string                    `json:"parent"`
	Target conversation.RewindTarget `json:"target"`
	// Scope ScopeConversation leaves the working directory alone; by default the
	// fork's (new, empty) working directory gets the parent's files at the point.
	Scope conversation.RewindScope `json:"scope,omitempty"`
}

// RewindArgs is RewindUpdate's argument: where to, and who asks (user@host, or
// what the caller says).
type RewindArgs struct {
	Target conversation.RewindTarget `json:"target"`
	By     string                    `json:"by"`
	// Scope says what goes back: the conversation and the workspace (the
	// default), the conversation only, or the code only.
	Scope conversation.RewindScope `json:"scope,omitempty"`
}

// RewindResult says what a rewind did.
type RewindResult struct {
	Target conversation.RewindTarget `json:"target"`
	// Messages is the length of the conversation now; Dropped how many messages of
	// the one before are no longer in it.
	Messages int `json:"messages"`
	Dropped  int `json:"dropped"`
	// Mark is the turn gone back to (nil for LATEST).
	Mark *conversation.TurnMark `json:"mark,omitempty"`
	// Interrupted: a prompt was running and was ended first.
	Interrupted bool      `json:"interrupted,omitempty"`
	By          string    `json:"by"`
	At          time.Time `json:"at"`
	// Code is what the workspace rewind did (session_rewind_code.go): nil when the
	// scope left the workspace alone.
	Code *CodeRewind `json:"code,omitempty"`
}

// registerRewind installs RewindUpdate.
func (s *session) registerRewind(ctx workflow.Context) error {
	if err := workflow.SetUpdateHandlerWithOptions(ctx, RewindUpdate, s.rewind,
		workflow.UpdateHandlerOptions{
			Validator: func(ctx workflow.Context, req RewindArgs) error {
				switch {
				case s.in.Depth > 0:
					return fmt.Errorf("a sub-agent is rewound with its session")
				case !req.Target.Latest && req.Target.Turn < 1:
					return fmt.Errorf("rewind to turn %d: turns are numbered from 1 (or LATEST)", req.Target.Turn)
				case s.in.Control != nil && s.in.Control.Fork != nil:
					return fmt.Errorf("session %s is being forked: rewind it once the fork is made", s.in.SessionID)
				case !req.Scope.Valid():
					return fmt.Errorf("rewind scope %q: say conversation, code or both", req.Scope)
				}
				return nil
			},
			Description: "Take the conversation back to just before a turn's model call (or after its results), or to LATEST to undo; a running prompt is interrupted first.",
		}); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	return nil
}

// rewind is RewindUpdate's handler.
func (s *session) rewind(ctx workflow.Context, req RewindArgs) (RewindResult, error) {
	s.controls++
	res := RewindResult{Target: req.Target, By: req.By}
	if !s.loopDone {
		res.Interrupted = s.phase != PhaseIdle || len(s.pendingUser) > 0
		s.promptInterrupted = true
		s.interruptTurn(ctx, InterruptRequest{NoMessage: true})
		if err := workflow.Await(ctx, func() bool { return s.loopDone }); err != nil {
			return res, err
		}
	}
	if !s.found && s.head.Next <= 1 { // a new session has stored nothing yet
		return res, temporal.NewApplicationErrorWithOptions(fmt.Sprintf("session %s has no conversation in the store: nothing to rewind", s.in.SessionID),
			contract.ErrBadRewind, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	res.At = workflow.Now(ctx)
	rreq := conversation.RewindRequest{SessionID: s.in.SessionID, Target: req.Target, By: req.By, At: res.At, Head: s.head,
		Inherited: s.in.Inherited, Scope: conversation.ScopeConversation}
	if workflow.GetVersion(ctx, workspaceTimeline, workflow.DefaultVersion, 1) >= 1 {
		rreq.Scope = req.Scope
		code, err := s.rewindCode(ctx, rreq) // session_rewind_code.go: first, so that a failure changes nothing
		if err != nil {
			return res, err
		}
		res.Code = code
		if code != nil {
			rreq.Restored = code.Checkpoint // for the record
		}
		rreq.Scope = conversation.ScopeConversation // the workspace is done
		if !req.Scope.Conversation() {
			rreq.Scope = conversation.ScopeCode // only recorded
		}
	}
	var reply conversation.RewindReply
	err := workflow.ExecuteActivity(s.storeCtx(ctx, "Rewind to "+req.Target.Words()), s.names.of(contract.RewindSessionActivityName),
		rreq).Get(ctx, &reply)
	if err != nil {
		return res, err
	}
	if !rreq.Scope.Conversation() {
		res.Messages, res.Mark = s.head.Conversation.Len(), reply.Mark
		if res.Code != nil && res.Code.Checkpoint != "" {
			s.context = tool.Context{} // the files read are not what they were
		}
		s.note(SessionEvent{Kind: EventRewind, Text: fmt.Sprintf("workspace rewound to %s by %s: %s", req.Target.Words(), req.By, res.Code.words())})
		s.publish(ctx)
		return res, nil
	}
	// The read state goes back with the conversation: the rewound conversation's
	// reads are not known apart, so none is assumed (a prompt starts with none).
	s.head, s.state, s.context = reply.Head, reply.State, tool.Context{}
	s.pendingResults, s.pendingUser = nil, nil
	res.Messages, res.Dropped, res.Mark = s.head.Conversation.Len(), reply.Dropped, reply.Mark
	text := fmt.Sprintf("rewound to %s by %s: %d messages (%d dropped)", req.Target.Words(), req.By, res.Messages, res.Dropped)
	if res.Code != nil {
		text += "; workspace: " + res.Code.words()
	}
	s.note(SessionEvent{Kind: EventRewind, Text: text})
	s.publish(ctx)
	return res, nil
}

// control is the body of a run that calls no model (SessionInput.Control): it
// makes the fork, or serves the rewind sent with its start, and ends.
func (s *session) control(ctx workflow.Context) (SessionResult, error) {
	c := s.in.Control
	s.stopReason = StopRewound
	if c.Fork != nil {
		if err := s.forkWorkspace(ctx, *c.Fork); err != nil { // session_rewind_code.go: before the fork exists
			return SessionResult{}, err
		}
		var reply conversation.ForkReply
		err := workflow.ExecuteActivity(s.storeCtx(ctx, "Fork "+c.Fork.Parent+" at "+c.Fork.Target.Words()), s.names.of(contract.ForkSessionActivityName),
			conversation.ForkRequest{SessionID: s.in.SessionID, Parent: c.Fork.Parent, Target: c.Fork.Target}).Get(ctx, &reply)
		if err != nil {
			return SessionResult{}, err
		}
		s.head, s.found, s.stopReason = reply.Head, true, StopForked
		s.linkParent(ctx)
	}
	s.loopDone = true
	if c.Rewind && s.controls == 0 {
		// The update comes with the start; a run started without it ends.
		if _, err := workflow.AwaitWithTimeout(ctx, time.Minute, func() bool { return s.controls > 0 }); err != nil {
			return SessionResult{}, err
		}
	}
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return SessionResult{}, err
	}
	s.release(ctx) // fleet.go: a rewind of a placed session ran on its host
	// A rewind sent while the release ran went to this run (the session's running
	// one): it is served before the run ends, on the host the run was placed on.
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return SessionResult{}, err
	}
	s.done, s.phase = true, PhaseDone
	s.publish(ctx)
	return SessionResult{SessionID: s.in.SessionID, StopReason: s.stopReason, LastTurn: s.head.LastTurn,
		Conversation: s.head.Conversation, Budget: s.state, Workspace: s.forked}, nil
}

// linkParent puts a fork's parent in its run's memo (no registration needed),
// so the UI shows where it came from. Heads of sessions that are not forks have
// no parent: runs recorded before forks existed never reach the upsert.
func (s *session) linkParent(ctx workflow.Context) {
	if s.head.Parent == "" {
		return
	}
	if err := workflow.UpsertMemo(ctx, map[string]any{MemoParentSession: s.head.Parent, MemoForkedAt: s.head.ForkedAt}); err != nil {
		workflow.GetLogger(ctx).Warn("upsert memo", "error", err)
	}
}

// recordTurn adds the finished model call's mark to the session's history.
func (s *session) recordTurn(ctx workflow.Context, reply conversation.ModelReply) error {
	if s.in.Depth > 0 || workflow.GetVersion(ctx, turnHistory, workflow.DefaultVersion, 1) < 1 {
		return nil
	}
	m := conversation.TurnMark{Seq: reply.Seq, Turn: s.markTurn, Prompt: s.markPrompt, CallCount: len(reply.ToolUses),
		Text: cut(reply.Text, conversation.MaxMarkText), Usage: reply.Usage, Time: workflow.Now(ctx)}
	m.Before = s.markSent
	if b := s.markBefore; b != nil && s.markSent.IsPrefix(*b) {
		m.Before = *b // without the prompt that came with the call
	}
	for i, tu := range reply.ToolUses {
		if i < conversation.MaxMarkCalls {
			m.Calls = append(m.Calls, tu.Summary)
		}
		if tu.File != "" && !slices.Contains(m.Files, tu.File) {
			m.Files = append(m.Files, tu.File)
		}
	}
	m.After = s.head.Conversation
	if len(s.pendingResults) > 0 { // stored first by the next append, at head.Next
		m.After = m.After.Append(s.in.SessionID, s.head.Next, 1, 0)
	}
	if err := workflow.ExecuteActivity(s.storeCtx(ctx, fmt.Sprintf("Record turn %d", m.Turn)), s.names.of(contract.RecordTurnActivityName),
		conversation.RecordTurnRequest{SessionID: s.in.SessionID, Mark: m}).Get(ctx, nil); err != nil {
		return err
	}
	what := strings.Join(m.Calls, ", ")
	switch {
	case m.Prompt != "" && what != "":
		what = fmt.Sprintf("%q → %s", m.Prompt, what)
	case m.Prompt != "":
		what = fmt.Sprintf("%q", m.Prompt)
	case what == "":
		what = "reply: " + m.Text
	}
	s.historyLines = append(s.historyLines, HistoryLine{Turn: m.Turn, What: cut(what, 120), Files: m.Files,
		InTokens: m.Usage.InputTokens + m.Usage.CacheReadInputTokens + m.Usage.CacheCreationInputTokens, OutTokens: m.Usage.OutputTokens})
	if n := len(s.historyLines) - maxHistoryShown; n > 0 {
		s.historyLines = slices.Delete(s.historyLines, 0, n)
	}
	return nil
}

// maxHistoryShown bounds the model calls the details list (the newest).
const maxHistoryShown = 20

// markPoint notes, as pending messages are stored, the conversation before the
// user's messages among them (before) and the first one's text: the point just
// before the next model call that a rewind goes back to, and the prompt it answers.
func (s *session) markPoint(before conversation.Conversation, user []conversation.Message) {
	s.markBefore, s.markPrompt = &before, ""
	if len(user) > 0 {
		s.markPrompt = cut(user[0].Text(), conversation.MaxMarkText)
	}
}

// cut shortens s to n runes, marking the cut.
func cut(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
