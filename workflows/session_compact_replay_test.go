package workflows_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// compactHistories are recorded sessions that compacted twice and continued as new in
// between, oldest first: session_history_compact.json continued from the summary alone
// (context-compaction); session_history_compact_keep.json keeps the most recent
// exchanges after it (compaction-keeps-recent), and is the one recorded again.
var compactHistories = []string{
	"testdata/session_history_compact.json",
	"testdata/session_history_compact_keep.json",
}

const (
	compactReplayID  = "session-replay-compact"
	compactSummaryNo = "Summary one: echo a ran."
	// compactPrompt is long enough that a compaction of the first exchange may keep
	// the Bash call and its result (at most half the conversation is kept).
	compactPrompt = "echo things, one Bash call at a time, and tell me when every echo has run; keep it short. " +
		"This prompt is long on purpose: a compaction keeps at most half of the conversation's bytes."
)

// A tiny window (100 tokens) makes the session compact before every call after the
// first: the first run compacts, calls again and continues as new; the second run
// compacts (from the carried summary and kept messages) and ends. Each request after
// a compaction carries the summary and then the most recent exchanges as they were
// sent (the call and its result, never one without the other); the history of the
// first run is committed and replays, and so does the one from before kept messages.
func TestSessionCompactionReplayAndContinueAsNew(t *testing.T) {
	h := newAgentHarness(t,
		fakeanthropic.Response{When: "nearly full", Content: []wire.Block{text(compactSummaryNo)}},
		fakeanthropic.Response{When: "nearly full", Content: []wire.Block{text("Summary two: echo b ran too.")}},
		fakeanthropic.Response{Content: []wire.Block{use("k1", "Bash", map[string]any{"command": "echo a"})}},
		fakeanthropic.Response{Content: []wire.Block{use("k2", "Bash", map[string]any{"command": "echo b"})}},
		fakeanthropic.Response{Content: []wire.Block{text("done")}},
	)
	opts := fastOptions()
	opts.ContinueAsNewEvery = 2
	id := compactReplayID
	record := os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1"
	if !record {
		id = t.Name() + "-" + h.queue
	}
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: id, TaskQueue: h.queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: "cmp", Prompt: compactPrompt, Workdir: h.work,
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
	// Call 2: the summary, then the first exchange (the Bash call and its result).
	wantAfter(t, reqs[2], compactSummaryNo, "k1")
	// Summary 2 after continue-as-new is asked of what call 2 was sent and its answer.
	if first := reqs[3].Messages[0].Content[0].Text; !strings.Contains(first, compactSummaryNo) {
		t.Fatalf("after continue-as-new the conversation starts with %q, want the summary", first)
	}
	// Call 3: the second summary, then both exchanges, sent byte for byte as before.
	wantAfter(t, reqs[4], "Summary two", "k1", "k2")
	if a, b := rawMessages(t, reqs[2])[1:3], rawMessages(t, reqs[4])[1:3]; string(a[0]) != string(b[0]) || string(a[1]) != string(b[1]) {
		t.Fatalf("the kept exchange changed between calls:\n%s\n%s", a, b)
	}
	if record {
		testenv.WriteHistory(t, compactHistories[len(compactHistories)-1], testenv.History(t, h.c, run.GetID(), run.GetRunID()))
	}
	for _, path := range compactHistories {
		replayHistory(t, path, compactReplayID)
	}
}

// wantAfter checks that a request is the summary (a user message containing summary
// and saying how many messages follow), then one exchange per id: the assistant's
// tool_use and the user's tool_result answering it.
func wantAfter(t *testing.T, r fakeanthropic.Request, summary string, ids ...string) {
	t.Helper()
	if len(r.Messages) != 1+2*len(ids) {
		t.Fatalf("request of %d messages, want the summary and %d exchanges: %s", len(r.Messages), len(ids), r.Body)
	}
	first := r.Messages[0]
	if first.Role != wire.RoleUser || !strings.Contains(first.Content[0].Text, summary) ||
		!strings.Contains(first.Content[0].Text, "most recent messages of the conversation follow") {
		t.Fatalf("the request starts with %+v", first)
	}
	for i, id := range ids {
		use, res := r.Messages[1+2*i], r.Messages[2+2*i]
		if use.Role != wire.RoleAssistant || len(use.Content) != 1 || use.Content[0].ID != id ||
			res.Role != wire.RoleUser || len(res.Content) != 1 || res.Content[0].ToolUseID != id {
			b, _ := json.Marshal(r.Messages)
			t.Fatalf("exchange %d is not %s's call and result: %s", i+1, id, b)
		}
	}
}
