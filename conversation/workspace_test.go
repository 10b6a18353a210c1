package conversation

import "testing"

// The timeline rule on a session that was rewound and went on: turns 1-3 (seq
// 2, 4, 6) changed files, a rewind to before turn 2 (undo and restored state at
// seq 7, Next 8), then a new turn (seq 9). Each point finds the state its message
// started from, on whichever branch it was; LATEST finds the undo only while no
// message followed the rewinds.
func TestWorkspaceAt(t *testing.T) {
	timeline := []WorkspaceState{
		{Kind: WorkspaceStart, Seq: 0, Checkpoint: "c0", Next: 1},
		{Kind: WorkspaceTurn, Seq: 2, Turn: 1, Checkpoint: "c1", Next: 3},
		{Kind: WorkspaceTurn, Seq: 4, Turn: 2, Checkpoint: "c2", Next: 5},
		{Kind: WorkspaceTurn, Seq: 6, Turn: 3, Checkpoint: "c3", Next: 7},
		{Kind: WorkspaceUndo, Seq: 7, Checkpoint: "end", Next: 8},
		{Kind: WorkspaceRewind, Seq: 7, Checkpoint: "c1", Next: 8},
	}
	for _, c := range []struct {
		target RewindTarget
		seq    int
		want   string
	}{
		{RewindTarget{Turn: 1}, 2, "c0"},
		{RewindTarget{Turn: 2}, 4, "c1"},
		{RewindTarget{Turn: 2, After: true}, 4, "c2"},
		{RewindTarget{Turn: 3, After: true}, 6, "c3"},
		{RewindTarget{Latest: true}, 0, "end"},
	} {
		if st, ok, why := WorkspaceAt(timeline, c.target, c.seq, 8); !ok || st.Checkpoint != c.want {
			t.Errorf("%s: %+v %v %q, want %s", c.target.Words(), st, ok, why, c.want)
		}
	}
	// The session goes on after the rewind: a new turn at seq 9 starts from what
	// the rewind restored, and the old branch is still found.
	timeline = append(timeline, WorkspaceState{Kind: WorkspaceTurn, Seq: 9, Turn: 4, Checkpoint: "c4", Next: 10})
	if st, _, _ := WorkspaceAt(timeline, RewindTarget{Turn: 4}, 9, 11); st.Checkpoint != "c1" {
		t.Errorf("before the turn after the rewind: %s, want the restored c1", st.Checkpoint)
	}
	if st, _, _ := WorkspaceAt(timeline, RewindTarget{Turn: 3}, 6, 11); st.Checkpoint != "c2" {
		t.Errorf("before turn 3 of the old branch: %s, want c2", st.Checkpoint)
	}
	if _, ok, why := WorkspaceAt(timeline, RewindTarget{Latest: true}, 0, 11); ok || why == "" {
		t.Errorf("LATEST after the session went on: found one (%q)", why)
	}
	if _, ok, why := WorkspaceAt(nil, RewindTarget{Turn: 1}, 2, 3); ok || why == "" {
		t.Error("a session without checkpoints found a state")
	}
}
