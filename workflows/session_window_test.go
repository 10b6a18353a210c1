package workflows_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// The model's real window (60,000 tokens, as a proxy or a new model may have) is
// smaller than toolpipe's table says (200,000): the first request over it is refused,
// the session adopts the window the refusal names, and no request is refused again
// over 40 large Reads, across continue-as-new (issue 32 item 7: each refusal
// compacted and retried, and the conversation outgrew the window again and again).
func TestSessionLearnsTheWindowFromTheRefusal(t *testing.T) {
	const reads, window = 40, 60_000
	var rs []fakeanthropic.Response
	for i := 0; i < 20; i++ {
		rs = append(rs, fakeanthropic.Response{When: nearlyFull,
			Content: []wire.Block{text(fmt.Sprintf("Summary %d: the user wants every file read.", i))}})
	}
	h := newIdleAgentHarness(t)
	line := strings.Repeat("z", 99) + "\n"
	for i := 0; i < reads; i++ {
		path := filepath.Join(h.work, fmt.Sprintf("f%02d.txt", i))
		if err := os.WriteFile(path, []byte(strings.Repeat(line, 160)), 0o644); err != nil { // 16 KB, some 4,500 tokens read
			t.Fatal(err)
		}
		rs = append(rs, fakeanthropic.Response{Content: []wire.Block{use(fmt.Sprintf("r%02d", i), "Read", map[string]any{"file_path": path})}})
	}
	rs = append(rs, fakeanthropic.Response{Content: []wire.Block{text("all read")}})
	fake := h.runScript(fakeanthropic.Script{ContextWindow: window, Responses: rs})
	opts := fastOptions()
	opts.MaxTurns, opts.ContinueAsNewEvery = reads+1, 15
	run := h.start(workflows.SessionInput{Prompt: "read every file", Options: opts}) // the table's window
	res := h.result(run)
	if res.StopReason != "end_turn" || res.Text != "all read" {
		t.Fatalf("result %+v", res)
	}
	refused, summaries := 0, 0
	for _, r := range fake.Requests() {
		if r.Refused != "" {
			refused++
		}
		if strings.Contains(lastUserText(r), nearlyFull) {
			summaries++
		}
	}
	if refused != 1 || summaries < 2 {
		t.Fatalf("%d refused requests (want the one that taught the window), %d compactions", refused, summaries)
	}
	v, err := h.c.QueryWorkflow(testenv.Context(t), run.GetID(), "", contract.SessionStateQuery)
	var st workflows.SessionState
	if err == nil {
		err = v.Get(&st)
	}
	if err != nil || st.ContextWindow != window || st.Runs < 2 {
		t.Fatalf("state %+v, %v: want the learnt window %d after continue-as-new", st, err, window)
	}
	if hist := h.history(run.GetID()); !strings.Contains(hist, "the API's context window for") {
		t.Errorf("no notice of the learnt window in the history")
	}
}

// windowHistory is a recorded session that learnt its window from a refusal
// (learn-context-window): a Read takes the conversation past the fake's 10,000
// tokens, the refused call is answered by a compaction whose summary request was cut
// to fit beforehand, and the call goes through.
const windowHistory = "testdata/session_history_learn_window.json"

const windowReplayID = "session-replay-learn-window"

// The learnt window's workflow change replays: the recorded history (recorded again
// with TOOLPIPE_RECORD_HISTORY=1), and the run here is refused once, with the summary
// request not refused after it.
func TestSessionLearnWindowReplay(t *testing.T) {
	const window = 10_000
	h := newIdleAgentHarness(t)
	path := filepath.Join(h.work, "big.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat(strings.Repeat("w", 99)+"\n", 400)), 0o644); err != nil { // 40 KB
		t.Fatal(err)
	}
	fake := h.runScript(fakeanthropic.Script{ContextWindow: window, Responses: []fakeanthropic.Response{
		{When: nearlyFull, Content: []wire.Block{text("Summary: big.txt was read; it is 400 lines of w.")}},
		{Content: []wire.Block{use("w1", "Read", map[string]any{"file_path": path})}},
		{Content: []wire.Block{text("done")}},
	}})
	id := windowReplayID
	record := os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1"
	if !record {
		id = t.Name() + "-" + h.queue
	}
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: id, TaskQueue: h.queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: "win", Prompt: "read big.txt", Workdir: h.work, Options: fastOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if res := h.result(run); res.Text != "done" {
		t.Fatalf("result %+v", res)
	}
	var refused []int
	for i, r := range fake.Requests() {
		if r.Refused != "" {
			refused = append(refused, i)
		}
	}
	if len(refused) != 1 || !strings.Contains(lastUserText(fake.Requests()[refused[0]+1]), nearlyFull) {
		t.Fatalf("refused requests %v of %d: want one, then the summary request served", refused, len(fake.Requests()))
	}
	if record {
		testenv.WriteHistory(t, windowHistory, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
	}
	replayHistory(t, windowHistory, windowReplayID)
}
