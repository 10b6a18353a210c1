package workflows_test

import (
	"os"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/workflows"
)

// compactHistory is a recorded session that compacted twice and continued as new in
// between (context-compaction).
const (
	compactHistory   = "testdata/session_history_compact.json"
	compactReplayID  = "session-replay-compact"
	compactSummaryNo = "Summary one: echo a ran."
)

// A tiny window makes the session compact before every call after the first: the
// first run compacts, calls again and continues as new; the second run compacts
// (from the carried summary) and ends. The request after continue-as-new starts from
// the summary; the first run's history is committed and replays.
func TestSessionCompactionReplayAndContinueAsNew(t *testing.T) {
	h := newAgentHarness(t,
		fakeanthropic.Response{When: "nearly full", Content: []conversation.Block{text(compactSummaryNo)}},
		fakeanthropic.Response{When: "nearly full", Content: []conversation.Block{text("Summary two: echo b ran too.")}},
		fakeanthropic.Response{Content: []conversation.Block{use("k1", "Bash", map[string]any{"command": "echo a"})}},
		fakeanthropic.Response{Content: []conversation.Block{use("k2", "Bash", map[string]any{"command": "echo b"})}},
		fakeanthropic.Response{Content: []conversation.Block{text("done")}},
	)
	opts := fastOptions()
	opts.ContinueAsNewEvery = 2
	id := compactReplayID
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") != "1" {
		id = t.Name() + "-" + h.queue
	}
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: id, TaskQueue: h.queue},
		workflows.SessionWorkflowName, workflows.SessionInput{SessionID: "cmp", Prompt: "echo things", Workdir: h.work,
			Options: opts, Model: workflows.ModelOptions{ContextWindow: 100}})
	if err != nil {
		t.Fatal(err)
	}
	res := h.result(run)
	if res.Text != "done" {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 3 calls and 2 summaries", len(reqs))
	}
	// Requests: call 1, summary 1, call 2, (continue-as-new) summary 2, call 3.
	if !strings.Contains(lastUserText(reqs[1]), "nearly full") || !strings.Contains(lastUserText(reqs[3]), "nearly full") {
		t.Fatalf("summaries not where expected: %q / %q", lastUserText(reqs[1]), lastUserText(reqs[3]))
	}
	if first := reqs[3].Messages[0].Content[0].Text; !strings.Contains(first, compactSummaryNo) {
		t.Fatalf("after continue-as-new the conversation starts with %q, want the summary", first)
	}
	if first := reqs[4].Messages[0].Content[0].Text; !strings.Contains(first, "Summary two") {
		t.Fatalf("the last call starts with %q", first)
	}
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		testenv.WriteHistory(t, compactHistory, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
	}
	r := sdkworker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(workflows.Session, workflow.RegisterOptions{Name: workflows.SessionWorkflowName})
	f, err := os.Open(compactHistory)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hist, err := client.HistoryFromJSON(f, client.HistoryJSONOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.ReplayWorkflowHistoryWithOptions(nil, hist, sdkworker.ReplayWorkflowHistoryOptions{
		OriginalExecution: workflow.Execution{ID: compactReplayID},
	}); err != nil {
		t.Fatalf("replay of %s: %v", compactHistory, err)
	}
}
