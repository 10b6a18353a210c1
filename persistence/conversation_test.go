package persistence

import (
	"testing"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/wire"
)

// A message is written once (a retry finds the first one); partial blocks are
// replaced and removed; records come back in the order decided; the head round-trips.
func TestConversationsStore(t *testing.T) {
	c, err := NewConversations(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewConversations("relative"); err == nil {
		t.Error("a relative state dir was accepted")
	}
	first := conversation.UserText("first")
	if got, err := c.WriteMessage("s", 1, first); err != nil || got.Text() != "first" {
		t.Fatalf("write: %v %+v", err, got)
	}
	if got, err := c.WriteMessage("s", 1, conversation.UserText("second")); err != nil || got.Text() != "first" {
		t.Fatalf("rewrite must keep the first message: %v %+v", err, got)
	}
	if !c.HasMessage("s", 1) || c.HasMessage("s", 2) {
		t.Fatal("HasMessage")
	}
	blocks := []wire.Block{{Type: "tool_use", ID: "t1", Name: "Bash"}}
	if err := c.WritePartial("s", 2, blocks); err != nil {
		t.Fatal(err)
	}
	if got, err := c.ReadPartial("s", 2); err != nil || len(got) != 1 || got[0].ID != "t1" {
		t.Fatalf("partial %v %+v", err, got)
	}
	if err := c.RemovePartial("s", 2); err != nil {
		t.Fatal(err)
	}
	if got, err := c.ReadPartial("s", 2); err != nil || got != nil {
		t.Fatalf("removed partial %v %+v", err, got)
	}
	c.WriteRecords("s", 5, []budget.Record{{ToolUseID: "b", Replacement: "B"}})
	c.WriteRecords("s", 3, []budget.Record{{ToolUseID: "a", Replacement: "A"}})
	c.WriteRecords("s", 3, []budget.Record{{ToolUseID: "x", Replacement: "X"}}) // a retry: kept as first written
	if rs, err := c.ReadRecords("s"); err != nil || len(rs) != 2 || rs[0].ToolUseID != "a" || rs[1].ToolUseID != "b" {
		t.Fatalf("records %v %+v", err, rs)
	}
	h := conversation.Head{Conversation: conversation.Conversation{}.Append("s", 1, 1, 5), Next: 2, Forked: true}
	if err := c.WriteHead("s", h); err != nil {
		t.Fatal(err)
	}
	if got, found, err := c.ReadHead("s"); err != nil || !found || got.Next != 2 || !got.Forked || got.Conversation.Len() != 1 {
		t.Fatalf("head %v %v %+v", err, found, got)
	}
	if _, found, err := c.ReadHead("other"); err != nil || found {
		t.Fatalf("missing head: %v %v", err, found)
	}
	if msgs, err := c.Load(h.Conversation); err != nil || len(msgs) != 1 || msgs[0].Text() != "first" {
		t.Fatalf("load %v %+v", err, msgs)
	}
	if _, err := c.WriteMessage("../escape", 1, first); err == nil {
		t.Error("a session id with a path separator was accepted")
	}
}
