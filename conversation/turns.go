package conversation

import (
	"encoding/json"
	"time"

	"github.com/toolpipe/toolpipe/budget"
)

// TurnMark is one model call of a session as its history lists it (`starter agent
// history`): what it answered, what it did, and the two points of the conversation
// a rewind or a fork can go back to. The session records one after every model call
// (RecordTurnRequest); they are kept in the store beside the head, never in the
// workflow's state, so a session's history costs its workflow nothing however long.
type TurnMark struct {
	// Seq is the assistant message's sequence number: unique in the session, the
	// key a retried record replaces.
	Seq int `json:"seq"`
	// Turn is the number of the Turn workflow that ran the call's tools (its id ends
	// in turn-<Turn>); zero for a reply without tool calls.
	Turn int `json:"turn,omitempty"`
	// Prompt is the start of the user message this call answers first (none when
	// it answers tool results).
	Prompt string `json:"prompt,omitempty"`
	// Calls are the summaries of the call's first tool calls ("Bash(rm b.txt)"),
	// CallCount how many it made; Files the files its file tools wrote or edited.
	Calls     []string `json:"calls,omitempty"`
	CallCount int      `json:"call_count,omitempty"`
	Files     []string `json:"files,omitempty"`
	// Text is the start of the reply's text.
	Text string `json:"text,omitempty"`
	// Checkpoint is the workspace checkpoint taken after the turn, when one was.
	Checkpoint string `json:"checkpoint,omitempty"`
	// Usage is the call's tokens.
	Usage Usage `json:"usage"`
	// Before is the conversation just before the call, without the user messages
	// that came with it (a rewind to it takes the prompt back too, as Claude Code
	// does); After is the conversation once the call's results are in it.
	Before Conversation `json:"before"`
	After  Conversation `json:"after"`
	// Time is when the call ended (workflow time).
	Time time.Time `json:"time"`
}

// MaxMarkCalls bounds the tool call summaries a mark keeps; MaxMarkText the
// prompt's and the reply's text.
const (
	MaxMarkCalls = 3
	MaxMarkText  = 200
)

// RecordTurnRequest adds a mark to the session's history.
type RecordTurnRequest struct {
	SessionID string   `json:"session_id"`
	Mark      TurnMark `json:"mark"`
}

// RewindTarget names the point a rewind or a fork goes to: just before turn Turn's
// model call, or after its results (After), or, with Latest, the conversation the
// session had before its last rewinds (an undo).
type RewindTarget struct {
	Turn   int  `json:"turn,omitempty"`
	After  bool `json:"after,omitempty"`
	Latest bool `json:"latest,omitempty"`
}

// RewindRecord is a rewind as the store keeps it (the session's rewinds log).
type RewindRecord struct {
	Target RewindTarget `json:"target"`
	// By is who asked (user@host, or what the caller said); At when (workflow time).
	By string    `json:"by"`
	At time.Time `json:"at"`
	// From is the conversation before the rewind, To the one after it.
	From Conversation `json:"from"`
	To   Conversation `json:"to"`
	// Latest is what a rewind to LATEST goes back to: the conversation before the
	// first of the rewinds since the session last went on (Next unchanged).
	Latest Conversation `json:"latest"`
	Next   int          `json:"next"`
	// Checkpoint is the workspace checkpoint restored, when the code went back too.
	Checkpoint string `json:"checkpoint,omitempty"`
}

// RewindRequest asks the store to move session's head to Target. Head is the
// head as the session holds it now.
type RewindRequest struct {
	SessionID string       `json:"session_id"`
	Target    RewindTarget `json:"target"`
	By        string       `json:"by"`
	At        time.Time    `json:"at"`
	Head      Head         `json:"head"`
	// Inherited is the parent's budget state of a forked sub-agent (OpenRequest).
	Inherited *budget.State `json:"inherited,omitempty"`
	// Scope says what goes back: the conversation, the code (the reply then
	// names the workspace state to restore), or both.
	Scope RewindScope `json:"scope,omitempty"`
	// DryRun only resolves the target: nothing is recorded or changed.
	DryRun bool `json:"dry_run,omitempty"`
	// Restored is the workspace checkpoint the workflow restored for this rewind
	// (after a dry run named it), for the record.
	Restored string `json:"restored,omitempty"`
}

// RewindReply is the new head and the budget state reconstructed for it, and the
// mark of the turn gone back to (none for LATEST).
type RewindReply struct {
	Head  Head          `json:"head"`
	State *budget.State `json:"state"`
	Mark  *TurnMark     `json:"mark,omitempty"`
	// Dropped counts the messages of the conversation the rewind took out of it.
	Dropped int `json:"dropped"`
	// Workspace is, for a dry run, the workspace state to restore, when the scope
	// takes the code back and one was recorded (WorkspaceAt); else WorkspaceNote
	// says why not.
	Workspace     *WorkspaceState `json:"workspace,omitempty"`
	WorkspaceNote string          `json:"workspace_note,omitempty"`
}

// RecordWorkspaceRequest adds states to a session's workspace timeline.
type RecordWorkspaceRequest struct {
	SessionID string           `json:"session_id"`
	States    []WorkspaceState `json:"states"`
}

// ForkRequest starts session SessionID from Parent's conversation at Target.
type ForkRequest struct {
	SessionID string       `json:"session_id"`
	Parent    string       `json:"parent"`
	Target    RewindTarget `json:"target"`
	// DryRun only resolves the point and the parent's workspace state there.
	DryRun bool `json:"dry_run,omitempty"`
}

// ForkReply is the fork's first head and the mark it was forked at.
type ForkReply struct {
	Head Head     `json:"head"`
	Mark TurnMark `json:"mark"`
	// Workspace is the parent's workspace state at the point, when its timeline
	// has one (WorkspaceAt): what the fork's working directory starts with.
	Workspace *WorkspaceState `json:"workspace,omitempty"`
}

// IsPrefix reports whether p is a prefix of c: the messages of p are c's first ones.
func (c Conversation) IsPrefix(p Conversation) bool {
	refs, prefs := c.Refs(), p.Refs()
	if len(prefs) > len(refs) {
		return false
	}
	for i, r := range prefs {
		if refs[i] != r {
			return false
		}
	}
	return true
}

// EditedFile is the file a call of a file tool writes: Write's, Edit's, MultiEdit's
// file_path, NotebookEdit's notebook_path; "" for other tools.
func EditedFile(name string, input json.RawMessage) string {
	var in struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	}
	switch name {
	case "Write", "Edit", "MultiEdit":
		_ = json.Unmarshal(input, &in)
		return in.FilePath
	case "NotebookEdit":
		_ = json.Unmarshal(input, &in)
		return in.NotebookPath
	}
	return ""
}
