package budget

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/wire"
)

// benchConversation is 200 messages: 100 turns of an assistant message and a user
// message with one to five results, the last turn wide enough to exceed the budget.
func benchConversation() []Message {
	var msgs []Message
	for turn := range 100 {
		user := Message{Role: wire.RoleUser}
		n := 1 + turn%5
		size := 2_000 + (turn*7919)%40_000
		if turn == 99 {
			n, size = 10, 30_000
		}
		asstMsg := Message{Role: wire.RoleAssistant, Blocks: []wire.Block{{Type: wire.BlockText, Text: "working"}}}
		for i := range n {
			id := fmt.Sprintf("toolu_%03d_%d", turn, i)
			asstMsg.Blocks = append(asstMsg.Blocks, wire.Block{Type: wire.BlockToolUse, ToolUseID: id})
			user.Blocks = append(user.Blocks, wire.Block{Type: wire.BlockToolResult, ToolUseID: id,
				Content: strings.Repeat("x", size+i)})
		}
		msgs = append(msgs, asstMsg, user)
	}
	return msgs
}

func BenchmarkEnforce(b *testing.B) {
	msgs := benchConversation()
	cfg := Config{BudgetChars: DefaultBudgetChars, Stub: tagStub}

	// The usual call: everything but the newest turn was judged before.
	b.Run("newest-turn", func(b *testing.B) {
		base := NewState()
		if _, _, err := Enforce(msgs[:len(msgs)-2], base, cfg); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			st := base.Clone()
			b.StartTimer()
			if _, recs, err := Enforce(msgs, st, cfg); err != nil || len(recs) == 0 {
				b.Fatalf("records %d, err %v", len(recs), err)
			}
		}
	})
	// A replay or idempotent call: nothing new to judge.
	b.Run("all-judged", func(b *testing.B) {
		st := NewState()
		if _, _, err := Enforce(msgs, st, cfg); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := Enforce(msgs, st, cfg); err != nil {
				b.Fatal(err)
			}
		}
	})
}
