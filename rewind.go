package toolpipe

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/searchattr"
	"github.com/toolpipe/toolpipe/workflows"
)

// HistoryTurn is one model call of a session, as History lists it.
type HistoryTurn struct {
	// Turn is the number of the Turn that ran its tools (what Rewind and Fork
	// take); zero for a reply without tool calls.
	Turn int `json:"turn,omitempty"`
	// Prompt is the start of the user message it answers first, if any; Calls the
	// summaries of its first tool calls, CallCount how many it made; Files the
	// files its file tools wrote; Text the start of its reply's text.
	Prompt    string   `json:"prompt,omitempty"`
	Calls     []string `json:"calls,omitempty"`
	CallCount int      `json:"call_count,omitempty"`
	Files     []string `json:"files,omitempty"`
	Text      string   `json:"text,omitempty"`
	// Checkpoint is the workspace checkpoint taken after the turn, if one was.
	Checkpoint string    `json:"checkpoint,omitempty"`
	Usage      Usage     `json:"usage"`
	Time       time.Time `json:"time"`
	// Current says the turn is in the session's conversation now (false for the
	// turns a rewind took out of it, which stay in the store).
	Current bool `json:"current"`
}

// SessionRewind is one rewind of a session.
type SessionRewind struct {
	// To is where it went: "before turn 4", "after turn 4" or "LATEST".
	To string    `json:"to"`
	By string    `json:"by"`
	At time.Time `json:"at"`
	// Messages is the length of the conversation it left.
	Messages int `json:"messages"`
}

// History is a session's model calls in order and its rewinds.
type History struct {
	SessionID string `json:"session_id"`
	// Parent is the session this one was forked from, at turn ForkedAt.
	Parent   string          `json:"parent,omitempty"`
	ForkedAt int             `json:"forked_at,omitempty"`
	Turns    []HistoryTurn   `json:"turns"`
	Rewinds  []SessionRewind `json:"rewinds,omitempty"`
}

// History reads session's history from the state directory (WithStateDir), where
// its workers keep it beside the conversation: it needs no worker and no query, so
// a closed session's is there too.
func (c *Client) History(ctx context.Context, sessionID string) (History, error) {
	if err := checkPlace(sessionID, "/"); err != nil {
		return History{}, err
	}
	if c.stateDir == "" {
		return History{}, invalid("a session's history is kept in the workers' state directory: give the client WithStateDir")
	}
	convs, err := persistence.NewConversations(c.stateDir)
	if err != nil {
		return History{}, fmt.Errorf("toolpipe: session %s: history: %w", sessionID, err)
	}
	head, found, err := convs.ReadHead(sessionID)
	if err == nil && !found {
		return History{}, invalid("session %s has no conversation in %s", sessionID, c.stateDir)
	}
	var marks []conversation.TurnMark
	var rewinds []conversation.RewindRecord
	if err == nil {
		marks, err = convs.Turns(sessionID)
	}
	if err == nil {
		rewinds, err = convs.Rewinds(sessionID)
	}
	var timeline []conversation.WorkspaceState
	if err == nil {
		timeline, err = convs.Workspace(sessionID)
	}
	after := map[int]string{} // the checkpoint each turn's calls left
	for _, st := range timeline {
		if st.Kind == conversation.WorkspaceTurn {
			after[st.Seq] = st.Checkpoint
		}
	}
	if err != nil {
		return History{}, fmt.Errorf("toolpipe: session %s: history: %w", sessionID, err)
	}
	h := History{SessionID: sessionID, Parent: head.Parent, ForkedAt: head.ForkedAt, Turns: []HistoryTurn{}}
	current := map[conversation.Ref]bool{}
	for _, r := range head.Conversation.Refs() {
		current[r] = true
	}
	for _, m := range marks {
		if m.Checkpoint == "" {
			m.Checkpoint = after[m.Seq]
		}
		h.Turns = append(h.Turns, HistoryTurn{Turn: m.Turn, Prompt: m.Prompt, Calls: m.Calls, CallCount: m.CallCount, Files: m.Files,
			Text: m.Text, Checkpoint: m.Checkpoint, Usage: usage(m.Usage), Time: m.Time,
			Current: current[conversation.Ref{Session: sessionID, Seq: m.Seq}]})
	}
	for _, r := range rewinds {
		h.Rewinds = append(h.Rewinds, SessionRewind{To: r.Target.Words(), By: r.By, At: r.At, Messages: r.To.Len()})
	}
	return h, nil
}

// RewindOptions say where Rewind takes a session: just before turn To's model call
// (the prompt that came with it goes too), after its results (After), or back to
// where it was before its last rewinds (Latest).
type RewindOptions struct {
	To     int
	After  bool
	Latest bool
	// By is who asks, for the record; "" is user@host of this process.
	By string
	// Workdir is the session's working directory, for a run started to serve the
	// rewind of a session that is not running; "" is the one its last run had. A
	// code rewind of a closed session in another directory than its own is
	// IsInvalidInput: the restore writes and removes files there.
	Workdir string
	// Scope says what goes back: the conversation and the workspace (RewindBoth,
	// the default), or one of them. The workspace goes back to the checkpoint of
	// that point (a session started with Checkpoints, or placed on a fleet); a
	// session without one keeps its files under RewindBoth (RewindResult says
	// so) and refuses RewindCode.
	Scope RewindScope
}

// RewindScope says what a rewind takes back.
type RewindScope string

// The scopes of a rewind.
const (
	RewindBoth         RewindScope = ""
	RewindConversation RewindScope = "conversation"
	RewindCode         RewindScope = "code"
)

// RewindResult says what a rewind did.
type RewindResult struct {
	// Messages is the length of the conversation now, Dropped how many messages of
	// the one before are not in it any more (they stay in the store).
	Messages, Dropped int
	// Turn is the turn gone back to (0 for LATEST).
	Turn int
	// Checkpoint is the workspace checkpoint restored ("" when the files were
	// left as they were: WorkspaceNote says why), Undo the checkpoint of the
	// workspace just before (a rewind to LATEST restores it); Written and Removed
	// count the files the restore wrote and removed.
	Checkpoint, Undo, WorkspaceNote string
	Written, Removed                int
	// Interrupted says the session was running a prompt, which was ended first.
	Interrupted bool
	By          string
	At          time.Time
}

// Rewind takes the session's conversation back to a turn: the next prompt's
// model request ends where the turn began (or after its results). The turns after
// it stay in the store; Rewind with Latest undoes it. A session running a prompt
// is interrupted first; one that is not running is sent the rewind with the start
// of a run that does only that, so every rewind is an update in the session's
// history, with who asked. A turn the session does not have is IsInvalidInput and
// changes nothing.
func (s *Session) Rewind(ctx context.Context, o RewindOptions) (RewindResult, error) {
	if !conversation.RewindScope(o.Scope).Valid() {
		return RewindResult{}, invalid("rewind: scope %q: use RewindBoth, RewindConversation or RewindCode", o.Scope)
	}
	if !o.Latest && o.To < 1 {
		return RewindResult{}, invalid("rewind: give a turn number from 1 (`starter agent history` lists them) or LATEST")
	}
	by := o.By
	if by == "" {
		by = whoAmI()
	}
	sid := s.sessionID()
	start, err := s.controlInput(ctx, o)
	if err != nil {
		return RewindResult{}, err
	}
	op := s.c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{ID: s.ID, TaskQueue: s.api.queue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		StaticSummary:            "agent: rewind session " + sid,
	}, contract.SessionWorkflowName, start)
	up, err := s.c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateName: workflows.RewindUpdate, WaitForStage: client.WorkflowUpdateStageCompleted,
			Args: []any{workflows.RewindArgs{Target: conversation.RewindTarget{Turn: o.To, After: o.After, Latest: o.Latest}, By: by,
				Scope: conversation.RewindScope(o.Scope)}}}})
	var r workflows.RewindResult
	if err == nil {
		err = up.Get(ctx, &r)
	}
	if err != nil {
		return RewindResult{}, rewindError("session "+sid, "rewind", err)
	}
	out := RewindResult{Messages: r.Messages, Dropped: r.Dropped, Interrupted: r.Interrupted, By: r.By, At: r.At}
	if r.Mark != nil {
		out.Turn = r.Mark.Turn
	}
	if c := r.Code; c != nil {
		out.Checkpoint, out.Undo, out.WorkspaceNote, out.Written, out.Removed = c.Checkpoint, c.Undo, c.Note, c.Written, c.Removed
	}
	return out, nil
}

// ForkOptions say which session to fork, where, and the new session's id.
type ForkOptions struct {
	// Parent is the session forked; SessionID the fork's id, which must have no
	// conversation yet.
	Parent, SessionID string
	// At is the turn: the fork starts with the conversation just before it (the
	// prompt that came with it not included), or after its results (After).
	At    int
	After bool
	// Workdir is the fork's working directory. When the parent kept checkpoints,
	// it gets the parent's files at the point, and must then be new or empty (a
	// fork that shared its parent's directory would see the parent's files change):
	// a directory with files is IsInvalidInput, nothing changed.
	Workdir string
	// Scope RewindConversation forks the conversation only, leaving Workdir as it
	// is; the default (RewindBoth) takes the files too. RewindCode is refused.
	Scope RewindScope
}

// Fork makes a new session from Parent's conversation at a turn; Parent is not
// touched. The fork's conversation names the parent's stored messages (nothing is
// copied) and its runs carry the parent in their memo (parent_session) and, where
// the namespace has it, the ToolpipeParentSession search attribute, so the UI
// lists a session's forks. Continue it with StartSession and its id. A fork onto a
// session that exists, or at a turn Parent does not have, is IsInvalidInput.
func (c *Client) Fork(ctx context.Context, o ForkOptions) (*Session, error) {
	if err := checkPlace(o.Parent, "/"); err != nil {
		return nil, err
	}
	if err := checkPlace(o.SessionID, "/"); err != nil {
		return nil, err
	}
	if o.At < 1 {
		return nil, invalid("fork: give the turn to fork at, from 1 (`starter agent history` lists them)")
	}
	if o.Scope != RewindBoth && o.Scope != RewindConversation {
		return nil, invalid("fork: scope %q: a fork takes the conversation, with the files (RewindBoth) or without (RewindConversation)", o.Scope)
	}
	if o.Parent == o.SessionID {
		return nil, invalid("fork: the fork needs its own session id (rewind a session to go back in it)")
	}
	s := &Session{c: c.c, api: c, ID: SessionWorkflowID(o.SessionID), queue: c.queue}
	opts := client.StartWorkflowOptions{ID: s.ID, TaskQueue: c.queue,
		WorkflowIDReusePolicy:                    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		StaticSummary:                            fmt.Sprintf("agent: fork of %s at turn %d", o.Parent, o.At),
		Memo:                                     map[string]any{workflows.MemoParentSession: o.Parent, workflows.MemoForkedAt: o.At},
	}
	if c.hasParentAttribute(ctx) {
		opts.TypedSearchAttributes = temporal.NewSearchAttributes(
			temporal.NewSearchAttributeKeyKeyword(searchattr.ParentSession).ValueSet(o.Parent),
			temporal.NewSearchAttributeKeyKeyword(searchattr.SessionID).ValueSet(o.SessionID))
	}
	run, err := c.c.ExecuteWorkflow(ctx, opts, contract.SessionWorkflowName, workflows.SessionInput{SessionID: o.SessionID, Workdir: o.Workdir,
		Control: &workflows.SessionControl{Fork: &workflows.ForkFrom{Parent: o.Parent, Target: conversation.RewindTarget{Turn: o.At, After: o.After},
			Scope: conversation.RewindScope(o.Scope)}}})
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return nil, invalid("session %s is running: fork onto a new session id", o.SessionID)
	}
	var res workflows.SessionResult
	if err == nil {
		err = run.Get(ctx, &res)
	}
	if err != nil {
		return nil, rewindError("fork of "+o.Parent, "fork", err)
	}
	if w := res.Workspace; w != nil {
		s.ForkCheckpoint, s.ForkFiles = w.Checkpoint, w.Written
	}
	s.run, s.runID = run, run.GetRunID()
	return s, nil
}

// hasParentAttribute asks the namespace for ToolpipeParentSession (one call per
// fork; forks are rare): upserting an attribute it lacks would fail the start.
func (c *Client) hasParentAttribute(ctx context.Context) bool {
	if required, _ := c.searchAttributes(ctx); !required {
		return false
	}
	resp, err := c.c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: c.namespace})
	return err == nil && resp.GetCustomAttributes()[searchattr.ParentSession] == enumspb.INDEXED_VALUE_TYPE_KEYWORD
}

// rewindError makes a rewind's or a fork's refusal (a point the session does not
// have, a fork onto a session that exists) an input error, with its message.
func rewindError(what, verb string, err error) error {
	var app *temporal.ApplicationError
	if errors.As(err, &app) && (app.Type() == contract.ErrBadRewind || app.Type() == contract.ErrSessionExists) {
		return invalid("%s", app.Error())
	}
	if errors.As(err, &app) && app.Type() == contract.ErrCheckpointNotFound {
		// The store lacks the checkpoint: said once, without the activity's
		// wrapping, with what it did not touch (the restore comes first).
		return fmt.Errorf("toolpipe: %s: %s: %s; nothing was changed (the files and the conversation are as they were): %w",
			what, verb, app.Message(), errCheckpointMissing)
	}
	return fmt.Errorf("toolpipe: %s: %s: %w", what, verb, err)
}

// errCheckpointMissing ends the message of a rewind or fork whose checkpoint the
// store does not hold.
var errCheckpointMissing = errors.New("the checkpoint is not in the blob store: was blob-url changed, or the store emptied?")

// sessionID is the session id of the handle's workflow (SessionWorkflowID).
func (s *Session) sessionID() string { return s.ID[len("session-"):] }

// whoAmI is user@host of this process, for the record of a rewind.
func whoAmI() string {
	name := "unknown"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	host, _ := os.Hostname()
	return name + "@" + host
}
