package workflows_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// A scripted three-call conversation through the real SDK: every request carries the
// conversation so far, message by message, with the previous requests' messages
// repeated byte for byte; the API key reaches the API but never the history.
func TestSessionScriptedConversation(t *testing.T) {
	work := t.TempDir()
	notes := filepath.Join(work, "notes.txt")
	os.WriteFile(notes, []byte("line one\nline two\n"), 0o644)
	out := filepath.Join(work, "out.txt")
	first := []wire.Block{
		text("I will look around."),
		use("t1", "Bash", map[string]any{"command": "echo hello"}),
		use("t2", "Read", map[string]any{"file_path": notes}),
	}
	second := []wire.Block{text("Now I write."), use("t3", "Write", map[string]any{"file_path": out, "content": "written\n"})}
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: first},
		fakeanthropic.Response{Content: second},
		fakeanthropic.Response{Content: []wire.Block{text("Done: notes read, out.txt written.")}},
	)
	run := h.start(workflows.SessionInput{Prompt: "Look at notes.txt and write out.txt", Workdir: work, Options: fastOptions()})
	res := h.result(run)
	if res.StopReason != "end_turn" || res.Turns != 3 || res.Text != "Done: notes read, out.txt written." {
		t.Fatalf("result %+v", res)
	}
	if b, _ := os.ReadFile(out); string(b) != "written\n" {
		t.Fatalf("out.txt is %q", b)
	}
	reqs := h.fake.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, r := range reqs {
		if r.APIKey != testAPIKey || r.Model != workflows.DefaultModel || !r.Stream {
			t.Errorf("request %d: key %q model %q stream %v", i, r.APIKey, r.Model, r.Stream)
		}
		if !slices.Contains(r.Tools, "Bash") || !slices.Contains(r.Tools, "Task") {
			t.Errorf("request %d offers %v", i, r.Tools)
		}
		if i > 0 {
			samePrefix(t, reqs[i-1], r)
		}
	}
	// Request 1: the prompt alone.
	m := reqs[0].Messages
	if len(m) != 1 || m[0].Role != "user" || m[0].Content[0].Text != "Look at notes.txt and write out.txt" {
		t.Fatalf("request 1: %+v", m)
	}
	// Request 2: + the first assistant message as streamed, + its results in order.
	m = reqs[1].Messages
	if len(m) != 3 || m[1].Role != "assistant" || !sameBlocks(m[1].Content, first) {
		t.Fatalf("request 2 assistant: %+v", m)
	}
	if ids := resultOrder(m[2]); !slices.Equal(ids, []string{"t1", "t2"}) {
		t.Fatalf("request 2 results %v", ids)
	}
	r := userResults(m[2])
	if r["t1"].Content != "hello" || r["t1"].IsError || !strings.Contains(r["t2"].Content, "line two") {
		t.Fatalf("request 2 results %+v", r)
	}
	// Request 3: + the second assistant message, + the Write's result.
	m = reqs[2].Messages
	if len(m) != 5 || !sameBlocks(m[3].Content, second) || resultOrder(m[4])[0] != "t3" || userResults(m[4])["t3"].IsError {
		t.Fatalf("request 3: %+v", m[3:])
	}
	if hist := h.history(run.GetID()); strings.Contains(hist, testAPIKey) {
		t.Fatal("the API key is in the session's history")
	}
	if st, _ := os.ReadDir(filepath.Join(h.state, "s1", "conversation")); len(st) < 6 {
		t.Fatalf("the conversation store has %d entries", len(st))
	}
}

// A tool starts before the streamed assistant message has ended: the model's message
// is held open after its tool_use block until the tool's side effect is seen.
func TestToolStartsBeforeMessageEnds(t *testing.T) {
	work := t.TempDir()
	hold := make(chan struct{})
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{
			use("m1", "Bash", map[string]any{"command": "echo started > marker"}),
			text("still writing this message"),
		}, HoldBeforeEnd: hold},
		fakeanthropic.Response{Content: []wire.Block{text("ok")}},
	)
	run := h.start(workflows.SessionInput{Prompt: "go", Workdir: work, Options: fastOptions()})
	poll(t, "the tool's marker while the message is still streaming", func() bool {
		_, err := os.Stat(filepath.Join(work, "marker"))
		return err == nil
	})
	if len(h.fake.Requests()) != 1 {
		t.Fatal("the first message has not ended, yet a second request came")
	}
	v, err := h.c.QueryWorkflow(testenv.Context(t), run.GetID(), "", contract.SessionStateQuery)
	if err != nil {
		t.Fatal(err)
	}
	var st workflows.SessionState
	if err := v.Get(&st); err != nil || st.Phase != workflows.PhaseModel {
		t.Fatalf("session state %+v (%v), want phase model", st, err)
	}
	close(hold)
	if res := h.result(run); res.Text != "ok" {
		t.Fatalf("result %+v", res)
	}
}

func sameBlocks(got, want []wire.Block) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Type != w.Type || g.Text != w.Text || g.ID != w.ID || g.Name != w.Name || !jsonEqual(g.Input, w.Input) {
			return false
		}
	}
	return true
}

func resultOrder(m conversation.Message) []string {
	var ids []string
	for _, b := range m.Content {
		if b.Type == "tool_result" {
			ids = append(ids, b.ToolUseID)
		}
	}
	return ids
}
