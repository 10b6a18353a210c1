package activities

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
)

func keepFixture() ([]conversation.Message, []conversation.Ref) {
	asst := func(id string) conversation.Message {
		return conversation.Message{Role: wire.RoleAssistant, Content: []wire.Block{
			{Type: wire.BlockText, Text: "next"},
			{Type: wire.BlockToolUse, ID: id, Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)}}}
	}
	res := func(id string, n int) conversation.Message {
		return conversation.Message{Role: wire.RoleUser, Content: []wire.Block{
			{Type: wire.BlockToolResult, ToolUseID: id, Content: strings.Repeat("r", n)}}}
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

// noIntake refuses tool_use blocks: a summary call hands none over.
type noIntake struct{}

func (noIntake) Deliver(context.Context, string, tool.Block) error { return errors.New("no turn") }
func (noIntake) Close(context.Context, string) error               { return nil }
func (noIntake) DeliverTask(context.Context, string, string, string, tool.Block) error {
	return errors.New("no session")
}
func (noIntake) OpenTurn(context.Context, string, string, string) error { return errors.New("no turn") }

// A compaction stores the summary and a head that continues from it and the kept
// messages, so a session resumed from the store sends what the running one would;
// a retried compaction (the summary already stored) keeps the same messages without
// asking the model again.
func TestCompactConversationKeepsRecentInStoreAndOnRetry(t *testing.T) {
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{{Type: wire.BlockText, Text: "Summary: ls ran three times."}}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	a, err := NewAgent(AgentConfig{StateDir: t.TempDir(), ModelEndpoint: ModelEndpoint{APIKey: "k", BaseURL: fake.URL()}, Intake: noIntake{}})
	if err != nil {
		t.Fatal(err)
	}
	msgs, refs := keepFixture()
	var conv conversation.Conversation
	for i, m := range msgs {
		stored, err := a.convs.WriteMessage("s", refs[i].Seq, m)
		if err != nil {
			t.Fatal(err)
		}
		conv = conv.Append("s", refs[i].Seq, 1, stored.Size())
	}
	keep := 0
	for _, m := range msgs[3:] {
		keep += m.Size()
	}
	req := contract.CompactRequest{Model: conversation.ModelRequest{SessionID: "s", Seq: 18, Conversation: conv, Model: "claude-sonnet-4-5", MaxTokens: 1000},
		Trigger: "auto", KeepBytes: keep}
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestActivityEnvironment()
	env.RegisterActivityWithOptions(a.CompactConversation, activity.RegisterOptions{Name: contract.CompactActivityName})
	compact := func() contract.CompactReply {
		t.Helper()
		val, err := env.ExecuteActivity(contract.CompactActivityName, req)
		if err != nil {
			t.Fatal(err)
		}
		var rep contract.CompactReply
		if err := val.Get(&rep); err != nil {
			t.Fatal(err)
		}
		return rep
	}
	first := compact()
	if got := first.Kept.Refs(); len(got) != 5 || got[0].Seq != 13 || got[4].Seq != 17 {
		t.Fatalf("kept %+v, want messages 13-17 (exchange b, the user's message, exchange c)", first.Kept)
	}
	head, found, err := a.convs.ReadHead("s")
	if err != nil || !found {
		t.Fatalf("head: %v, found %v", err, found)
	}
	if want := contract.Compacted("s", 18, first.Size, first.Kept); !reflect.DeepEqual(head.Conversation, want) || head.Next != 19 {
		t.Fatalf("stored head %+v, want %+v from 19", head, want)
	}
	summary, err := a.convs.ReadMessage("s", 18)
	if err != nil || !strings.Contains(summary.Text(), "Summary: ls ran three times.") ||
		!strings.Contains(summary.Text(), "The 5 most recent messages of the conversation follow this summary") {
		t.Fatalf("stored summary %q (%v)", summary.Text(), err)
	}
	again := compact()
	if !reflect.DeepEqual(again.Kept, first.Kept) || again.Size != first.Size || len(fake.Requests()) != 1 {
		t.Fatalf("the retry kept %+v (size %d) after %d model requests; the first kept %+v (size %d)",
			again.Kept, again.Size, len(fake.Requests()), first.Kept, first.Size)
	}
}
