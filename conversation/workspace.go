package conversation

import "fmt"

// A session's workspace timeline: every state its workspace was checkpointed in,
// in the order it happened (the store's workspace.json). A rewind of the code
// (issue 30) restores the state its target point had, which is the last state
// recorded before that point's message ran; it is found by position in time, not
// by turn number, so a rewound session that went on (new messages, new turns)
// still finds the states of its abandoned branch, and an undo (LATEST) finds the
// workspace as it was before the rewinds.

// The kinds of workspace state.
const (
	// WorkspaceTurn: captured after the calls of message Seq (0: when the
	// session's first run started, before any model call).
	WorkspaceTurn = "turn"
	// WorkspaceStart: captured when a later run of the session started (a resume),
	// after every message so far.
	WorkspaceStart = "start"
	// WorkspaceUndo: the workspace just before a rewind restored another state: what
	// a rewind to LATEST goes back to.
	WorkspaceUndo = "undo"
	// WorkspaceRewind: the state a rewind restored.
	WorkspaceRewind = "rewind"
)

// WorkspaceState is one entry of the timeline.
type WorkspaceState struct {
	Kind string `json:"kind"`
	// Seq is the last message the state follows: the message whose calls changed
	// it (WorkspaceTurn), or the session's last message when it was recorded.
	Seq int `json:"seq"`
	// Turn is the Turn workflow's number (turn-<Turn>) of a WorkspaceTurn.
	Turn int `json:"turn,omitempty"`
	// Checkpoint is the checkpoint id.
	Checkpoint string `json:"checkpoint"`
	// Next is the head's Next when it was recorded: entries recorded since the
	// session last went on share it.
	Next int `json:"next"`
}

// RewindScope says what a rewind takes back: the conversation, the workspace
// (code), or both (the default, "").
type RewindScope string

// The scopes of a rewind.
const (
	ScopeBoth         RewindScope = ""
	ScopeConversation RewindScope = "conversation"
	ScopeCode         RewindScope = "code"
)

// Conversation and Code say what the scope takes back.
func (s RewindScope) Conversation() bool { return s != ScopeCode }

// Code says whether the scope restores the workspace.
func (s RewindScope) Code() bool { return s != ScopeConversation }

// Valid reports a scope a caller may send.
func (s RewindScope) Valid() bool {
	return s == ScopeBoth || s == ScopeConversation || s == ScopeCode
}

// WorkspaceAt finds the state a rewind to target restores: for a turn, the last
// state recorded before its message (seq) ran, or, with After, once its calls had
// run; for LATEST, the workspace before the first of the rewinds made since the
// session last went on (next is the head's Next now). ok is false when there is
// nothing to restore: no state recorded before that point (the session kept no
// checkpoints then), or no rewind to undo; why says it for people.
func WorkspaceAt(timeline []WorkspaceState, target RewindTarget, seq, next int) (st WorkspaceState, ok bool, why string) {
	if target.Latest {
		found := false
		for i := len(timeline) - 1; i >= 0; i-- {
			e := timeline[i]
			if e.Next != next || (e.Kind != WorkspaceUndo && e.Kind != WorkspaceRewind) {
				break
			}
			if e.Kind == WorkspaceUndo {
				st, found = e, true
			}
		}
		if !found {
			return WorkspaceState{}, false, "the workspace was not rewound since the session last went on: it is at its latest"
		}
		return st, true, ""
	}
	for i := len(timeline) - 1; i >= 0; i-- {
		e := timeline[i]
		if e.Seq < seq || target.After && e.Seq == seq && e.Kind == WorkspaceTurn {
			return e, true, ""
		}
	}
	if len(timeline) == 0 {
		return WorkspaceState{}, false, "the session keeps no workspace checkpoints (start it with --checkpoints)"
	}
	return WorkspaceState{}, false, fmt.Sprintf("no checkpoint of the workspace was taken before %s (checkpoints began later)", target.Words())
}
