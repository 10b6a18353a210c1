package activities

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
)

// registerRewind registers the history, rewind and fork activities.
func (a *Agent) registerRewind(r worker.ActivityRegistry, legacy bool) {
	RegisterNamed(r, a.RecordTurn, contract.RecordTurnActivityName, legacy)
	RegisterNamed(r, a.RecordWorkspace, contract.RecordWorkspaceActivityName, legacy)
	RegisterNamed(r, a.RewindSession, contract.RewindSessionActivityName, legacy)
	RegisterNamed(r, a.ForkSession, contract.ForkSessionActivityName, legacy)
}

// RecordTurn adds a model call's mark to its session's history.
func (a *Agent) RecordTurn(ctx context.Context, req conversation.RecordTurnRequest) error {
	return storeFailure(a.convs.RecordTurn(req.SessionID, req.Mark))
}

// RecordWorkspace adds states to a session's workspace timeline, in order.
func (a *Agent) RecordWorkspace(ctx context.Context, req conversation.RecordWorkspaceRequest) error {
	for _, st := range req.States {
		if err := a.convs.RecordWorkspace(req.SessionID, st); err != nil {
			return storeFailure(err)
		}
	}
	return nil
}

// RewindSession moves a session's head to the target: it finds the point in the
// session's history, checks that every message of it is in the store, records the
// rewind (who, when, from what) and then writes the head. A target the session does
// not have changes nothing and fails for good (ErrBadRewind). The reply carries the
// budget state reconstructed for the new conversation, so replaced results stay
// replaced and results the rewound conversation never had are forgotten.
func (a *Agent) RewindSession(ctx context.Context, req conversation.RewindRequest) (conversation.RewindReply, error) {
	marks, err := a.convs.Turns(req.SessionID)
	if err != nil {
		return conversation.RewindReply{}, storeFailure(err)
	}
	rewinds, err := a.convs.Rewinds(req.SessionID)
	if err != nil {
		return conversation.RewindReply{}, storeFailure(err)
	}
	if n := len(rewinds); n > 0 && sameRewind(rewinds[n-1], req) {
		rewinds = rewinds[:n-1] // a retry: what this rewind found is what came before it
	}
	if !req.Scope.Valid() {
		return conversation.RewindReply{}, badRewind("session %s: rewind scope %q: say conversation, code or both", req.SessionID, req.Scope)
	}
	var p conversation.Point
	if req.Scope.Conversation() || !req.Target.Latest { // the code's LATEST is its own (WorkspaceAt)
		if p, err = conversation.Resolve(marks, rewinds, req.Head, req.Target); err != nil {
			return conversation.RewindReply{}, badRewind("session %s: rewind to %s: %v", req.SessionID, req.Target.Words(), err)
		}
	}
	if req.DryRun {
		return a.planWorkspace(req, p)
	}
	if !req.Scope.Conversation() {
		// The code only (restored by the workflow already): the conversation stays,
		// and the rewind is recorded as one that left it where it was.
		latest := req.Head.Conversation // what the conversation's LATEST stays
		if n := len(rewinds); n > 0 && rewinds[n-1].Next == req.Head.Next {
			latest = rewinds[n-1].Latest
		}
		rec := conversation.RewindRecord{Target: req.Target, By: req.By, At: req.At, From: req.Head.Conversation,
			To: req.Head.Conversation, Latest: latest, Next: req.Head.Next, Checkpoint: req.Restored}
		if err := a.convs.RecordRewind(req.SessionID, rec); err != nil {
			return conversation.RewindReply{}, storeFailure(err)
		}
		return conversation.RewindReply{Head: req.Head, Mark: p.Mark}, nil
	}
	state, err := a.reconstruct(req.SessionID, req.Head, p.Conversation, req.Inherited)
	if err != nil {
		return conversation.RewindReply{}, err
	}
	rec := conversation.RewindRecord{Target: req.Target, By: req.By, At: req.At, From: req.Head.Conversation,
		To: p.Conversation, Latest: p.Latest, Next: req.Head.Next, Checkpoint: req.Restored}
	if err := a.convs.RecordRewind(req.SessionID, rec); err != nil {
		return conversation.RewindReply{}, storeFailure(err)
	}
	head := req.Head
	head.Conversation = p.Conversation
	if err := a.convs.WriteHead(req.SessionID, head); err != nil {
		return conversation.RewindReply{}, storeFailure(err)
	}
	dropped := max(req.Head.Conversation.Len()-commonPrefix(req.Head.Conversation, p.Conversation), 0)
	return conversation.RewindReply{Head: head, State: state, Mark: p.Mark, Dropped: dropped}, nil
}

// planWorkspace answers a dry run: the point, and the workspace state a rewind of
// the code restores there (conversation.WorkspaceAt), or why there is none: a
// refusal when the code alone was asked for, a note when both were.
func (a *Agent) planWorkspace(req conversation.RewindRequest, p conversation.Point) (conversation.RewindReply, error) {
	reply := conversation.RewindReply{Head: req.Head, Mark: p.Mark}
	if !req.Scope.Code() {
		return reply, nil
	}
	timeline, err := a.convs.Workspace(req.SessionID)
	if err != nil {
		return reply, storeFailure(err)
	}
	seq := 0
	if p.Mark != nil {
		seq = p.Mark.Seq
	}
	st, ok, why := conversation.WorkspaceAt(timeline, req.Target, seq, req.Head.Next)
	switch {
	case ok:
		reply.Workspace = &st
	case req.Scope == conversation.ScopeCode:
		return reply, badRewind("session %s: rewind the code to %s: %s", req.SessionID, req.Target.Words(), why)
	default:
		reply.WorkspaceNote = why
	}
	return reply, nil
}

// ForkSession starts session req.SessionID's store from its parent's conversation
// at the target: the fork's head names the parent's messages (no copy), so the
// parent is untouched and the two go on apart. A session id that has a
// conversation already is refused (ErrSessionExists).
func (a *Agent) ForkSession(ctx context.Context, req conversation.ForkRequest) (conversation.ForkReply, error) {
	if _, found, err := a.convs.ReadHead(req.SessionID); err != nil {
		return conversation.ForkReply{}, storeFailure(err)
	} else if found {
		return conversation.ForkReply{}, temporal.NewApplicationErrorWithOptions(
			fmt.Sprintf("session %s has a conversation already: fork onto a new session id", req.SessionID),
			contract.ErrSessionExists, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	parent, found, err := a.convs.ReadHead(req.Parent)
	if err != nil {
		return conversation.ForkReply{}, storeFailure(err)
	}
	if !found {
		return conversation.ForkReply{}, badRewind("session %s has no conversation in the store: nothing to fork", req.Parent)
	}
	if req.Target.Latest {
		return conversation.ForkReply{}, badRewind("fork %s: --at takes a turn number (LATEST undoes a rewind)", req.Parent)
	}
	marks, err := a.convs.Turns(req.Parent)
	if err != nil {
		return conversation.ForkReply{}, storeFailure(err)
	}
	p, err := conversation.Resolve(marks, nil, parent, req.Target)
	if err != nil {
		return conversation.ForkReply{}, badRewind("fork %s at %s: %v", req.Parent, req.Target.Words(), err)
	}
	if _, err := a.reconstruct(req.Parent, parent, p.Conversation, nil); err != nil {
		return conversation.ForkReply{}, err
	}
	if req.DryRun {
		timeline, err := a.convs.Workspace(req.Parent)
		if err != nil {
			return conversation.ForkReply{}, storeFailure(err)
		}
		reply := conversation.ForkReply{Mark: *p.Mark}
		if st, ok, _ := conversation.WorkspaceAt(timeline, req.Target, p.Mark.Seq, parent.Next); ok {
			reply.Workspace = &st
		}
		return reply, nil
	}
	head := conversation.Head{Conversation: p.Conversation, Next: 1, TurnsNumbered: true, Parent: req.Parent, ForkedAt: req.Target.Turn}
	if err := a.convs.WriteHead(req.SessionID, head); err != nil {
		return conversation.ForkReply{}, storeFailure(err)
	}
	return conversation.ForkReply{Head: head, Mark: *p.Mark}, nil
}

// reconstruct loads conv (every message must be in the store: a point whose
// messages are gone is refused before anything changes) and rebuilds the budget
// state its session had for it, from the session's records and, for a fork, its
// parent's.
func (a *Agent) reconstruct(session string, head conversation.Head, conv conversation.Conversation, inherited *budget.State) (*budget.State, error) {
	msgs, err := a.convs.Load(conv)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || missingInStore(err) != nil {
			return nil, badRewind("session %s: the conversation of that point is not in the store any more (%v): nothing was changed", session, err)
		}
		return nil, storeFailure(err)
	}
	records, err := a.sessionRecords(session, head)
	if err != nil {
		return nil, err
	}
	if !head.Forked {
		inherited = nil
	}
	return budget.Reconstruct(conversation.ToBudget(msgs), records, inherited), nil
}

// sessionRecords are the replacement records of session and, for a fork, of the
// sessions it was forked from (whose messages its conversation starts with).
func (a *Agent) sessionRecords(session string, head conversation.Head) ([]budget.Record, error) {
	var out []budget.Record
	for seen := map[string]bool{}; session != "" && !seen[session]; {
		seen[session] = true
		recs, err := a.convs.ReadRecords(session)
		if err != nil {
			return nil, storeFailure(err)
		}
		out = append(recs, out...) // a fork's own records come last and win
		if head.Parent == "" {
			break
		}
		session = head.Parent
		h, found, err := a.convs.ReadHead(session)
		if err != nil || !found {
			break
		}
		head = h
	}
	return out, nil
}

func sameRewind(rec conversation.RewindRecord, req conversation.RewindRequest) bool {
	return rec.At.Equal(req.At) && rec.By == req.By && rec.Target == req.Target
}

// commonPrefix is how many first messages a and b share.
func commonPrefix(a, b conversation.Conversation) int {
	x, y := a.Refs(), b.Refs()
	n := 0
	for n < len(x) && n < len(y) && x[n] == y[n] {
		n++
	}
	return n
}

func badRewind(format string, args ...any) error {
	return temporal.NewApplicationErrorWithOptions(fmt.Sprintf(format, args...), contract.ErrBadRewind,
		temporal.ApplicationErrorOptions{NonRetryable: true})
}
