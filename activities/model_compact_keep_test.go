package activities

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/conversation"
)

func keepFixture() ([]conversation.Message, []conversation.Ref) {
	asst := func(id string) conversation.Message {
		return conversation.Message{Role: conversation.RoleAssistant, Content: []conversation.Block{
			{Type: conversation.BlockText, Text: "next"},
			{Type: conversation.BlockToolUse, ID: id, Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)}}}
	}
	res := func(id string, n int) conversation.Message {
		return conversation.Message{Role: conversation.RoleUser, Content: []conversation.Block{
			{Type: conversation.BlockToolResult, ToolUseID: id, Content: strings.Repeat("r", n)}}}
	}
	msgs := []conversation.Message{
		conversation.UserText(strings.Repeat("p", 1000)), // 0: the prompt
		asst("a"), res("a", 500), // 1, 2
		asst("b"), res("b", 100), // 3, 4
		conversation.UserText("and also"), // 5: a message sent during the turn
		asst("c"), res("c", 100),          // 6, 7
	}
	refs := make([]conversation.Ref, len(msgs))
	for i := range refs {
		refs[i] = conversation.Ref{Session: "s", Seq: 10 + i}
	}
	return msgs, refs
}

// The kept tail is the longest that fits and opens with an assistant message or a
// user message without tool_result, so that every kept tool_use keeps its result.
func TestKeptTailKeepsWholeExchanges(t *testing.T) {
	msgs, refs := keepFixture()
	size := func(from int) int {
		n := 0
		for _, m := range msgs[from:] {
			n += m.Size()
		}
		return n
	}
	for _, c := range []struct {
		keep, want int
	}{
		{0, 0},
		{size(7), 0},        // the last result alone cannot open a tail
		{size(6), 2},        // the last exchange
		{size(5) + 1, 3},    // the user's message opens the tail
		{size(3) - 1, 3},    // one byte short of exchange b
		{size(3), 5},        // exchange b, the message, exchange c
		{size(1) + 1000, 7}, // capped at half the conversation: exchange a fits
		{size(0) * 10, 7},   // never the whole conversation (half of it at most)
	} {
		n, kept := keptTail(msgs, refs, c.keep)
		if n != c.want || kept.Len() != n {
			t.Errorf("keepBytes %d: kept %d messages (%d in the conversation), want %d", c.keep, n, kept.Len(), c.want)
			continue
		}
		if n > 0 {
			r := kept.Refs()
			if r[0].Seq != refs[len(refs)-n].Seq || r[len(r)-1].Seq != refs[len(refs)-1].Seq || kept.Bytes() != size(len(msgs)-n) {
				t.Errorf("keepBytes %d: kept %+v", c.keep, kept)
			}
		}
	}
}
