package workflows

import (
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
)

// The code side of a rewind (issue 30): the workspace goes back to the state its
// target point had, found in the session's workspace timeline (the store's
// workspace.json, conversation.WorkspaceAt), including what Bash changed, since a
// checkpoint is of the whole working tree. Order matters for "a failure changes
// nothing": the target is resolved without changing anything; the workspace is
// captured as it is and recorded as the undo (what LATEST restores, even if the
// restore then dies half-way); the state is restored in place on the session's
// host; only then is the rewind recorded and the conversation moved.

// CodeRewind says what a rewind did to the workspace.
type CodeRewind struct {
	// Checkpoint is the state restored ("" when none was: Note says why).
	Checkpoint string `json:"checkpoint,omitempty"`
	// Undo is the checkpoint of the workspace just before: a rewind to LATEST
	// restores it.
	Undo string `json:"undo,omitempty"`
	// Written and Removed count the files the restore wrote and removed.
	Written int `json:"written"`
	Removed int `json:"removed"`
	// Note says why the workspace was left as it is.
	Note string `json:"note,omitempty"`
}

func (c *CodeRewind) words() string {
	switch {
	case c == nil:
		return "left as it is"
	case c.Checkpoint == "":
		return "left as it is: " + c.Note
	}
	return fmt.Sprintf("checkpoint %s restored (%d files written, %d removed; undo with --to LATEST)", shortID(c.Checkpoint), c.Written, c.Removed)
}

// rewindCode restores the workspace state of req's target when req.Scope takes
// the code back; nil when it does not.
func (s *session) rewindCode(ctx workflow.Context, req conversation.RewindRequest) (*CodeRewind, error) {
	if !req.Scope.Code() {
		return nil, nil
	}
	s.awaitCheckpoint(ctx) // a capture still running belongs in the timeline first
	dry := req
	dry.DryRun = true
	var plan conversation.RewindReply
	if err := workflow.ExecuteActivity(s.storeCtx(ctx, "Resolve the rewind to "+req.Target.Words()), s.names.of(contract.RewindSessionActivityName),
		dry).Get(ctx, &plan); err != nil {
		return nil, err
	}
	if plan.Workspace == nil {
		return &CodeRewind{Note: plan.WorkspaceNote}, nil
	}
	if s.in.Workdir == "" {
		return nil, temporal.NewApplicationErrorWithOptions(fmt.Sprintf("session %s: rewind the code: the session has no working directory here (give --workdir)", s.in.SessionID),
			contract.ErrBadRewind, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	hostCtx := s.checkpointCtx(ctx, fmt.Sprintf("Rewind the workspace of session %s to %s", s.in.SessionID, req.Target.Words()))
	var before contract.CheckpointResult
	if err := workflow.ExecuteActivity(hostCtx, s.names.of(contract.CaptureCheckpointActivityName), contract.CaptureRequest{
		SessionID: s.in.SessionID, Workdir: s.in.Workdir, Turn: s.head.LastTurn, Generation: s.generation(),
	}).Get(ctx, &before); err != nil {
		return nil, err
	}
	last := s.head.Next - 1
	if err := s.recordWorkspace(ctx, conversation.WorkspaceState{Kind: conversation.WorkspaceUndo, Seq: last, Checkpoint: before.ID, Next: s.head.Next}); err != nil {
		return nil, err
	}
	var res contract.RestoreResult
	if err := workflow.ExecuteActivity(hostCtx, s.names.of(contract.RestoreCheckpointActivityName), contract.RestoreRequest{
		SessionID: s.in.SessionID, Workdir: s.in.Workdir, ID: plan.Workspace.Checkpoint, InPlace: true, Generation: s.generation(),
	}).Get(ctx, &res); err != nil {
		return nil, err
	}
	if err := s.recordWorkspace(ctx, conversation.WorkspaceState{Kind: conversation.WorkspaceRewind, Seq: last, Checkpoint: res.ID, Next: s.head.Next}); err != nil {
		return nil, err
	}
	return &CodeRewind{Checkpoint: res.ID, Undo: before.ID, Written: res.Written, Removed: res.Removed}, nil
}

// recordWorkspace adds states to the session's workspace timeline in the store.
func (s *session) recordWorkspace(ctx workflow.Context, states ...conversation.WorkspaceState) error {
	return workflow.ExecuteActivity(s.storeCtx(ctx, "Record the workspace's state"), s.names.of(contract.RecordWorkspaceActivityName),
		conversation.RecordWorkspaceRequest{SessionID: s.in.SessionID, States: states}).Get(ctx, nil)
}

// forkWorkspace gives a fork's working directory the parent's files at the point,
// when the parent's timeline has a state there: restored fresh (the directory must
// be new or empty: a fork sharing its parent's directory would see the parent's
// files change), before the fork's conversation exists, so that a refusal leaves
// nothing behind. The state is the first of the fork's own timeline.
func (s *session) forkWorkspace(ctx workflow.Context, f ForkFrom) error {
	if !f.Scope.Code() || s.in.Workdir == "" || workflow.GetVersion(ctx, workspaceTimeline, workflow.DefaultVersion, 1) < 1 {
		return nil
	}
	var plan conversation.ForkReply
	if err := workflow.ExecuteActivity(s.storeCtx(ctx, "Resolve the fork of "+f.Parent+" at "+f.Target.Words()), s.names.of(contract.ForkSessionActivityName),
		conversation.ForkRequest{SessionID: s.in.SessionID, Parent: f.Parent, Target: f.Target, DryRun: true}).Get(ctx, &plan); err != nil {
		return err
	}
	if plan.Workspace == nil {
		return nil // the parent kept no checkpoints then: the directory is the fork's as it is
	}
	hostCtx := s.checkpointCtx(ctx, fmt.Sprintf("Restore %s's files at %s into the fork %s", f.Parent, f.Target.Words(), s.in.SessionID))
	var res contract.RestoreResult
	if err := workflow.ExecuteActivity(hostCtx, s.names.of(contract.RestoreCheckpointActivityName), contract.RestoreRequest{
		SessionID: s.in.SessionID, Workdir: s.in.Workdir, ID: plan.Workspace.Checkpoint, Generation: s.generation(),
	}).Get(ctx, &res); err != nil {
		return err
	}
	s.forked = &CodeRewind{Checkpoint: res.ID, Written: res.Written}
	return s.recordWorkspace(ctx, conversation.WorkspaceState{Kind: conversation.WorkspaceStart, Checkpoint: res.ID, Next: 1})
}
