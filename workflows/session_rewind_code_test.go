package workflows_test

import (
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/persistence"
)

// files reads the scripted session's files (absent: "-").
func (h *rewindHarness) files(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, n := range []string{"gone.txt", "edit.txt", "new.txt"} {
		b, err := os.ReadFile(filepath.Join(h.work, n))
		if err != nil {
			out[n] = "-"
			continue
		}
		out[n] = string(b)
	}
	return out
}

// The code side of a rewind on a session that continued as new every two model
// calls, so that the checkpoints of turns 3 and 4 were taken in earlier runs than
// the rewind: before turn 4 the Bash rm is undone and turn 5's edit too, turn 3's
// Write stays; LATEST brings the end back; the code alone leaves the conversation;
// a session without checkpoints keeps its files under the default scope and
// refuses the code alone, changing nothing.
func TestRewindCodeAcrossRuns(t *testing.T) {
	h := newRewindHarness(t)
	h.checkpoints = true
	opts := fastOptions()
	opts.ContinueAsNewEvery = 2
	if res := h.prompt("s1", "Do the five turns", opts); res.StopReason != "end_turn" {
		t.Fatalf("first prompt: %+v", res)
	}
	end := h.files(t)
	if end["gone.txt"] != "-" || end["edit.txt"] != "after turn 5\n" || end["new.txt"] != "written in turn 3\n" {
		t.Fatalf("at the end: %v", end)
	}
	convs, _ := persistence.NewConversations(h.state)
	timeline, err := convs.Workspace("s1")
	if err != nil || len(timeline) < 4 {
		t.Fatalf("timeline %+v, %v: want the start and turns 3, 4, 5", timeline, err)
	}

	rw, err := h.rewind("s1", conversation.RewindTarget{Turn: 4})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"gone.txt": "deleted in turn 4\n", "edit.txt": "before\n", "new.txt": "written in turn 3\n"}
	if got := h.files(t); !maps.Equal(got, want) || rw.Code == nil || rw.Code.Checkpoint == "" || rw.Code.Undo == "" {
		t.Fatalf("before turn 4: files %v (want %v), result %+v", got, want, rw.Code)
	}
	if _, err := h.rewind("s1", conversation.RewindTarget{Latest: true}); err != nil {
		t.Fatal(err)
	}
	if got := h.files(t); !maps.Equal(got, end) {
		t.Fatalf("LATEST: %v, want the end %v", got, end)
	}

	h.scope = conversation.ScopeCode
	before := h.head("s1")
	if _, err := h.rewind("s1", conversation.RewindTarget{Turn: 5, After: true}); err != nil {
		t.Fatal(err)
	}
	if got, head := h.files(t), h.head("s1"); !maps.Equal(got, end) || !before.Conversation.IsPrefix(head.Conversation) || head.Conversation.Len() != before.Conversation.Len() {
		t.Fatalf("the code to after turn 5: files %v, conversation %d messages (was %d)", got, head.Conversation.Len(), before.Conversation.Len())
	}
	if _, err := h.rewind("s1", conversation.RewindTarget{Turn: 1}); err != nil {
		t.Fatal(err)
	}
	if got := h.files(t); got["gone.txt"] != "deleted in turn 4\n" || got["new.txt"] != "-" {
		t.Fatalf("the code to before turn 1: %v", got)
	}
}

// A session without checkpoints: the default scope rewinds the conversation and
// says the files stayed; the code alone is refused and nothing changes.
func TestRewindCodeWithoutCheckpoints(t *testing.T) {
	h := newRewindHarness(t)
	if res := h.prompt("s1", "Do the five turns", fastOptions()); res.StopReason != "end_turn" {
		t.Fatalf("first prompt: %+v", res)
	}
	end, head := h.files(t), h.head("s1")
	h.scope = conversation.ScopeCode
	if _, err := h.rewind("s1", conversation.RewindTarget{Turn: 4}); err == nil {
		t.Fatal("the code alone of a session without checkpoints was rewound")
	}
	if got := h.head("s1"); !maps.Equal(h.files(t), end) || got.Conversation.Len() != head.Conversation.Len() {
		t.Fatal("a refused rewind changed something")
	}
	h.scope = conversation.ScopeBoth
	rw, err := h.rewind("s1", conversation.RewindTarget{Turn: 4})
	if err != nil {
		t.Fatal(err)
	}
	if rw.Code == nil || rw.Code.Checkpoint != "" || rw.Code.Note == "" || !maps.Equal(h.files(t), end) || rw.Messages >= head.Conversation.Len() {
		t.Fatalf("default scope without checkpoints: %+v (code %+v)", rw, rw.Code)
	}
}
