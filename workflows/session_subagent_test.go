package workflows_test

import (
	"encoding/json"
	"testing"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/workflows"
)

// Sub-agents make their parent's budget decisions. The parent's first results
// overflow the budget; then it forks a child from its conversation and starts a fresh
// one; later it resumes the fresh one. The fork's first request repeats the parent's
// conversation byte for byte (replacements included) and its state starts as a clone
// of the parent's; the resumed agent reconstructs, from its records, exactly the state
// it ended with, and repeats its earlier conversation byte for byte.
func TestSubAgentCloneAndResume(t *testing.T) {
	const parent = "parent"
	fresh := workflows.AgentID(parent, "k2")
	h := newAgentHarness(t,
		fakeanthropic.Response{When: "parent prompt", Content: []conversation.Block{
			use("p1", "Bash", map[string]any{"command": "echo parent-p1; seq 1 4000"}),
			use("p2", "Bash", map[string]any{"command": "echo parent-p2; seq 1 3000"}),
		}},
		fakeanthropic.Response{When: "parent-p2", Content: []conversation.Block{
			use("k1", "Task", map[string]any{"description": "fork", "prompt": "forked child task", "fork": true}),
			use("k2", "Task", map[string]any{"description": "fresh", "prompt": "fresh child task"}),
		}},
		fakeanthropic.Response{When: "forked child task", Content: []conversation.Block{text("fork done")}},
		fakeanthropic.Response{When: "fresh child task", Content: []conversation.Block{
			use("c1", "Bash", map[string]any{"command": "echo fresh-c1; seq 1 5000"}),
		}},
		fakeanthropic.Response{When: "fresh-c1", Content: []conversation.Block{text("fresh done")}},
		fakeanthropic.Response{When: "fork done", Content: []conversation.Block{
			use("k3", "Task", map[string]any{"description": "again", "prompt": "resume it", "resume": fresh}),
		}},
		fakeanthropic.Response{When: "resume it", Content: []conversation.Block{text("resumed done")}},
		fakeanthropic.Response{When: "resumed done", Content: []conversation.Block{text("all done")}},
	)
	opts := fastOptions()
	opts.BudgetChars = 20_000
	run := h.start(workflows.SessionInput{SessionID: parent, Prompt: "parent prompt", Options: opts})
	t.Cleanup(func() {
		if t.Failed() {
			for i, r := range h.fake.Requests() {
				last := r.Messages[len(r.Messages)-1]
				t.Logf("request %d -> response %d: %d messages, last %.200q", i, r.Response, len(r.Messages), fmtMessage(last))
			}
		}
	})
	res := h.result(run)
	if res.Text != "all done" || h.fake.Unused() != 0 {
		t.Fatalf("result %+v, %d scripted answers unused", res, h.fake.Unused())
	}
	if _, ok := res.Budget.Replacements["p1"]; !ok {
		t.Fatalf("the parent replaced nothing: %v", res.Budget.Replacements)
	}
	byResponse := map[int]fakeanthropic.Request{}
	for _, r := range h.fake.Requests() {
		byResponse[r.Response] = r
	}
	child := func(tool string) workflows.SessionResult {
		var r workflows.SessionResult
		if err := h.c.GetWorkflow(testenv.Context(t), run.GetID()+"/task-"+tool, "").Get(testenv.Context(t), &r); err != nil {
			t.Fatalf("sub-agent %s: %v", tool, err)
		}
		return r
	}

	// Fork: the parent's second request (its conversation then) is the fork's prefix.
	samePrefix(t, byResponse[1], byResponse[2])
	forkRes := child("k1")
	for id, rep := range res.Budget.Replacements {
		if id[0] == 'p' && forkRes.Budget.Replacements[id] != rep {
			t.Fatalf("the fork's replacement of %s differs from its parent's", id)
		}
	}

	// Resume: the fresh agent's state is reconstructed from its records exactly.
	freshRes, resumedRes := child("k2"), child("k3")
	if freshRes.SessionID != fresh || resumedRes.SessionID != fresh {
		t.Fatalf("agent ids %s, %s, want %s", freshRes.SessionID, resumedRes.SessionID, fresh)
	}
	if _, ok := freshRes.Budget.Replacements["c1"]; !ok {
		t.Fatalf("the fresh agent replaced nothing: %+v", freshRes.Budget)
	}
	if a, b := stateJSON(freshRes.Budget), stateJSON(resumedRes.Budget); a != b {
		t.Fatalf("resumed state differs:\n%s\n%s", a, b)
	}
	samePrefix(t, byResponse[4], byResponse[6])
	if got := rawMessages(t, byResponse[6]); len(got) != len(rawMessages(t, byResponse[4]))+2 {
		t.Fatalf("the resumed agent sent %d messages", len(got))
	}
}

func stateJSON(s *budget.State) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func fmtMessage(m conversation.Message) string {
	b, _ := json.Marshal(m)
	return string(b)
}
