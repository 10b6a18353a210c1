package workflows_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
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
		fakeanthropic.Response{When: "parent prompt", Content: []wire.Block{
			use("p1", "Bash", map[string]any{"command": "echo parent-p1; seq 1 4000"}),
			use("p2", "Bash", map[string]any{"command": "echo parent-p2; seq 1 3000"}),
		}},
		fakeanthropic.Response{When: "parent-p2", Content: []wire.Block{
			use("k1", "Task", map[string]any{"description": "fork", "prompt": "forked child task", "fork": true}),
			use("k2", "Task", map[string]any{"description": "fresh", "prompt": "fresh child task"}),
		}},
		fakeanthropic.Response{When: "forked child task", Content: []wire.Block{text("fork done")}},
		fakeanthropic.Response{When: "fresh child task", Content: []wire.Block{
			use("c1", "Bash", map[string]any{"command": "echo fresh-c1; seq 1 5000"}),
		}},
		fakeanthropic.Response{When: "fresh-c1", Content: []wire.Block{text("fresh done")}},
		fakeanthropic.Response{When: "fork done", Content: []wire.Block{
			use("k3", "Task", map[string]any{"description": "again", "prompt": "resume it", "resume": fresh}),
		}},
		fakeanthropic.Response{When: "resume it", Content: []wire.Block{text("resumed done")}},
		fakeanthropic.Response{When: "resumed done", Content: []wire.Block{text("all done")}},
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

// Issue 6: a Task call starts as soon as its block has streamed, like any tool: the
// parent's message is held open after the Task block until the sub-agent, which runs a
// tool of its own and answers, has finished.
func TestTaskStartsBeforeMessageEnds(t *testing.T) {
	work := t.TempDir()
	hold := make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(hold) }) }
	t.Cleanup(release)
	h := newAgentHarness(t,
		fakeanthropic.Response{When: "parent go", Content: []wire.Block{
			text("Delegating."),
			use("k1", "Task", map[string]any{"description": "early", "prompt": "child work"}),
			text("and still writing"),
		}, HoldBeforeEnd: hold},
		fakeanthropic.Response{When: "child work", Content: []wire.Block{
			use("c1", "Bash", map[string]any{"command": "echo child-ran > child-marker; echo child-tool-ok"}),
		}},
		fakeanthropic.Response{When: "child-tool-ok", Content: []wire.Block{text("child done")}},
		fakeanthropic.Response{When: "child done", Content: []wire.Block{text("parent done")}},
	)
	run := h.start(workflows.SessionInput{SessionID: "early", Prompt: "parent go", Workdir: work, Options: fastOptions()})
	// The child's two model calls come while the parent's first is held open; with
	// the Task started only at the message's end they would never come.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := h.fake.WaitRequests(ctx, 3); err != nil {
		t.Fatalf("the sub-agent did not run while the message streamed: %v", err)
	}
	var child workflows.SessionResult
	if err := h.c.GetWorkflow(testenv.Context(t), run.GetID()+"/task-k1", "").Get(testenv.Context(t), &child); err != nil {
		t.Fatalf("sub-agent: %v", err)
	}
	if child.Text != "child done" {
		t.Fatalf("sub-agent result %+v", child)
	}
	if b, err := os.ReadFile(filepath.Join(work, "child-marker")); err != nil || string(b) != "child-ran\n" {
		t.Fatalf("the sub-agent's tool: %q, %v", b, err)
	}
	// The parent's message has not ended: one parent request so far, still streaming.
	if n := len(h.fake.Requests()); n != 3 {
		t.Fatalf("%d requests before the parent's message ended, want 3", n)
	}
	v, err := h.c.QueryWorkflow(testenv.Context(t), run.GetID(), "", workflows.SessionStateQuery)
	if err != nil {
		t.Fatal(err)
	}
	var st workflows.SessionState
	if err := v.Get(&st); err != nil || st.Phase != workflows.PhaseModel {
		t.Fatalf("parent state %+v (%v), want phase model", st, err)
	}
	release()
	res := h.result(run)
	if res.Text != "parent done" || h.fake.Unused() != 0 {
		t.Fatalf("result %+v, %d answers unused", res, h.fake.Unused())
	}
	// The parent's next request answers the Task with the sub-agent's text, once.
	last := h.fake.Requests()[3]
	r := userResults(last.Messages[len(last.Messages)-1])
	if len(r) != 1 || !strings.Contains(r["k1"].Content, "child done") || r["k1"].IsError {
		t.Fatalf("the Task's result %+v", r)
	}
}

// Claude Code 2.1.328 offers its sub-agent tool as Agent (Task is its old name): a
// model trained on it calls Agent, which runs as a Task call; with sub-agents at
// their depth limit (Task not offered), the child's Agent call is told Agent is not
// available, in Claude Code's words.
func TestAgentCallRunsAsTask(t *testing.T) {
	h := newAgentHarness(t,
		fakeanthropic.Response{When: "parent go", Content: []wire.Block{
			use("k1", "Agent", map[string]any{"description": "delegate", "prompt": "child work", "subagent_type": "general-purpose"}),
		}},
		fakeanthropic.Response{When: "child work", Content: []wire.Block{
			use("c1", "Agent", map[string]any{"description": "deeper", "prompt": "grandchild work"}),
		}},
		fakeanthropic.Response{When: "Agent is disabled", Content: []wire.Block{text("child done")}},
		fakeanthropic.Response{When: "child done", Content: []wire.Block{text("parent done")}},
	)
	opts := fastOptions()
	opts.MaxDepth = 1
	run := h.start(workflows.SessionInput{SessionID: "agentalias", Prompt: "parent go", Workdir: t.TempDir(), Options: opts})
	res := h.result(run)
	if res.Text != "parent done" || h.fake.Unused() != 0 {
		t.Fatalf("result %+v, %d answers unused", res, h.fake.Unused())
	}
	reqs := h.fake.Requests()
	r := userResults(reqs[len(reqs)-1].Messages[len(reqs[len(reqs)-1].Messages)-1])
	if len(r) != 1 || !strings.Contains(r["k1"].Content, "child done") || r["k1"].IsError {
		t.Fatalf("the Agent call's result %+v", r)
	}
	for _, req := range reqs {
		for _, m := range req.Messages {
			if c, ok := userResults(m)["c1"]; ok {
				want := "<tool_use_error>Error: No such tool available: Agent. Agent is disabled for this session, in subagents as well as here.</tool_use_error>"
				if c.Content != want || !c.IsError {
					t.Fatalf("the child's Agent call beyond the depth limit: %+v, want %q", c, want)
				}
				return
			}
		}
	}
	t.Fatal("the child's Agent call got no result")
}
