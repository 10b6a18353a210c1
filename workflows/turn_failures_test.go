package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/converter"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/searchattr"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// Failures show in history, as the Web UI reads it (issue 32 item 5): a Bash that
// exited 1 is a failed activity (benign, one attempt) whose result the turn still
// returns word for word; an unknown tool and a refused input are failed RefusedCall
// records under their summaries; the finished turn's memo lists every call with
// its state and error; ToolpipeFailedCalls counts them; and the current details'
// table has the errors.
func TestTurnShowsFailures(t *testing.T) {
	ensureSearchAttributes(t)
	h := realHarness(t)
	dir := t.TempDir()
	run := h.start(workflows.TurnInput{SessionID: "fails", Workdir: dir, CloseIntake: true, SearchAttributes: true, FailedCallsAttribute: true,
		Blocks: []tool.Block{
			{ID: "g1", Name: tool.GlobName, Input: raw(map[string]any{"pattern": "*.none"})},
			{ID: "u1", Name: "NoSuchTool", Input: raw(map[string]any{"x": 1})},
			{ID: "r1", Name: tool.ReadName, Input: raw(map[string]any{"path": filepath.Join(dir, "x")})},
			bashB("b1", "echo failing; exit 3"),
		}})
	res := h.result(run)
	byID := map[string]tool.Result{}
	for _, r := range res.Results {
		byID[r.ToolUseID] = r
	}
	if r := byID["b1"]; !r.IsError || !strings.HasPrefix(r.Content, "Exit code 3") || !strings.Contains(r.Content, "failing") {
		t.Fatalf("b1: %+v", r)
	}
	if r := byID["g1"]; r.IsError {
		t.Fatalf("g1: %+v", r)
	}

	var failedBash, completed int
	refused := map[string]string{}  // summary -> failure message
	summaries := map[int64]string{} // scheduled event id -> summary
	var memo map[string]string
	for _, ev := range testenv.History(t, h.c, run.GetID(), run.GetRunID()) {
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			summaries[ev.GetEventId()] = payloadString(t, ev.GetUserMetadata().GetSummary())
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED:
			a := ev.GetActivityTaskFailedEventAttributes()
			f := a.GetFailure()
			switch f.GetApplicationFailureInfo().GetType() {
			case contract.ErrToolError:
				if !strings.HasPrefix(f.GetMessage(), "Exit code 3") {
					t.Errorf("failed activity %v", f)
				}
				failedBash++
			case contract.ErrRefusedCall:
				refused[summaries[a.GetScheduledEventId()]] = f.GetMessage()
			default:
				t.Errorf("failed activity %v", f)
			}
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			completed++
		case enumspb.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED:
			memo = memoFields(t, ev)
		}
	}
	if failedBash != 1 || completed != 1 {
		t.Errorf("%d failed and %d completed activities, want the Bash failed and the Glob completed", failedBash, completed)
	}
	if len(refused) != 2 || !strings.Contains(refused["NoSuchTool (unknown tool)"], "No such tool available: NoSuchTool") ||
		!strings.Contains(refused["Read (refused input)"], "InputValidationError") {
		t.Errorf("refused-call records %q", refused)
	}
	if memo[workflows.MemoFailedCalls] != "3" || !strings.Contains(memo[workflows.MemoCalls], `{"id":"b1","call":"Bash(echo failing; exit 3)","state":"error","error":"Exit code 3"}`) ||
		!strings.Contains(memo[workflows.MemoCalls], `"id":"u1","call":"NoSuchTool()","state":"error","error":"Error: No such tool available: NoSuchTool"`) {
		t.Errorf("memo %v", memo)
	}
	d, err := h.c.DescribeWorkflowExecution(testenv.Context(t), run.GetID(), run.GetRunID())
	if err != nil {
		t.Fatal(err)
	}
	var failed int64
	if p := d.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields()[searchattr.FailedCalls]; p != nil {
		_ = converter.GetDefaultDataConverter().FromPayload(p, &failed)
	}
	if failed != 3 || statusOf(t, h.c, run) != workflows.StatusDone {
		t.Errorf("ToolpipeFailedCalls %d, status %q", failed, statusOf(t, h.c, run))
	}
	if final := metadata(t, h.c, run).GetCurrentDetails(); !strings.Contains(final, "| 4 | `b1` | `Bash(echo failing; exit 3)` | error | `Exit code 3` |") {
		t.Errorf("final details:\n%s", final)
	}
	// The change replays: the history recorded from this test (again with
	// TOOLPIPE_RECORD_HISTORY=1), and this run's own.
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		testenv.WriteHistory(t, failuresHistory, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
	}
	replayHistory(t, failuresHistory, "")
	if err := replayEvents(&historypb.History{Events: testenv.History(t, h.c, run.GetID(), run.GetRunID())}, ""); err != nil {
		t.Fatalf("replay of this run: %v", err)
	}
}

// failuresHistory is a recorded turn of the ui-shows-failures change: a failed Bash
// activity, two RefusedCall records, the memo and ToolpipeFailedCalls.
const failuresHistory = "testdata/turn_history_failures.json"

func payloadString(t *testing.T, p *commonpb.Payload) string {
	t.Helper()
	var s string
	if p != nil {
		_ = converter.GetDefaultDataConverter().FromPayload(p, &s)
	}
	return s
}

func memoFields(t *testing.T, ev *historypb.HistoryEvent) map[string]string {
	t.Helper()
	out := map[string]string{}
	for k, p := range ev.GetWorkflowPropertiesModifiedEventAttributes().GetUpsertedMemo().GetFields() {
		out[k] = string(p.GetData())
	}
	return out
}
