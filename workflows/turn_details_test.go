package workflows_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	enumspb "go.temporal.io/api/enums/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/searchattr"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// metadataQuery is the SDK's built-in query the Temporal UI reads current details,
// and the handlers' descriptions, through.
const metadataQuery = "__temporal_workflow_metadata"

// descriptions maps each query, update and signal a workflow registered to its
// description, as the UI shows them.
func descriptions(md *sdkpb.WorkflowMetadata) map[string]string {
	described := map[string]string{}
	for _, d := range md.GetDefinition().GetQueryDefinitions() {
		described[d.GetName()] = d.GetDescription()
	}
	for _, d := range md.GetDefinition().GetUpdateDefinitions() {
		described[d.GetName()] = d.GetDescription()
	}
	for _, d := range md.GetDefinition().GetSignalDefinitions() {
		described[d.GetName()] = d.GetDescription()
	}
	return described
}

func metadata(t *testing.T, c client.Client, run client.WorkflowRun) *sdkpb.WorkflowMetadata {
	t.Helper()
	v, err := c.QueryWorkflow(testenv.Context(t), run.GetID(), run.GetRunID(), metadataQuery)
	if err != nil {
		t.Fatalf("metadata query: %v", err)
	}
	var md sdkpb.WorkflowMetadata
	if err := v.Get(&md); err != nil {
		t.Fatalf("metadata query: %v", err)
	}
	return &md
}

// activitySummaries reads the Summary of every scheduled activity from history, as
// the Temporal UI does.
func activitySummaries(t *testing.T, c client.Client, run client.WorkflowRun) []string {
	t.Helper()
	iter := c.GetWorkflowHistory(testenv.Context(t), run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var out []string
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		if ev.GetEventType() != enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED {
			continue
		}
		var s string
		if p := ev.GetUserMetadata().GetSummary(); p != nil {
			if err := converter.GetDefaultDataConverter().FromPayload(p, &s); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, s)
	}
	return out
}

// The current details (markdown) follow the tools' states while the turn runs, and
// the handlers carry descriptions; both are what the UI's metadata query returns.
func TestTurnCurrentDetails(t *testing.T) {
	h := newHarness(t)
	release := make(chan struct{})
	h.probe.on("b1", func(ctx context.Context, p *probe) (tool.Output, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return tool.Output{}, ctx.Err()
		}
		return tool.Output{Content: "built"}, nil
	})
	run := h.start(workflows.TurnInput{CloseIntake: true, Blocks: []tool.Block{
		bashB("b1", "make build"), readB("r1"), {ID: "u1", Name: "Nope", Input: raw(map[string]any{})},
	}})
	h.waitEvent("start b1")
	md := metadata(t, h.c, run)
	for _, want := range []string{
		"**3 tool call(s)** · 1 executing · 1 queued · 1 error",
		"| 1 | `b1` | `Bash(make build)` | executing |",
		"| 2 | `r1` | `Read(/tmp/r1)` | queued |",
		"| 3 | `u1` | `Nope()` | error |",
	} {
		if !strings.Contains(md.GetCurrentDetails(), want) {
			t.Errorf("current details lack %q:\n%s", want, md.GetCurrentDetails())
		}
	}
	described := descriptions(md)
	for _, name := range []string{contract.StateQuery, contract.AddBlocksUpdate, contract.CloseIntakeUpdate, contract.CollectUpdate, contract.InterruptSignal} {
		if described[name] == "" {
			t.Errorf("%s has no description in the workflow metadata: %v", name, described)
		}
	}

	close(release)
	h.result(run)
	final := metadata(t, h.c, run).GetCurrentDetails()
	if !strings.Contains(final, "· 2 done · 1 error") || !strings.Contains(final, "| 1 | `b1` | `Bash(make build)` | done |") {
		t.Errorf("final details:\n%s", final)
	}
	if got := activitySummaries(t, h.c, run); strings.Join(got, ";") != "Nope (unknown tool);Bash: `make build`;Read: `/tmp/r1`" {
		t.Errorf("activity summaries = %q", got)
	}
}

// ensureSearchAttributes registers toolpipe's search attributes on the shared test
// server, as the embedded server does on its own (searchattr.Ensure).
func ensureSearchAttributes(t *testing.T) {
	t.Helper()
	if _, err := searchattr.Ensure(testenv.Context(t), testenv.Client().OperatorService(), testenv.Server().GetDefaultNamespace(),
		func(m searchattr.Mismatch) error {
			return fmt.Errorf("search attribute %s is %s on the test server, want %s", m.Name, m.Got, m.Want)
		}); err != nil {
		t.Fatalf("add search attributes: %v", err)
	}
}

// With SearchAttributes on, a turn upserts its session and status (running, then
// done); with it off (clusters without them, turns recorded before) it upserts none.
func TestTurnSearchAttributes(t *testing.T) {
	ensureSearchAttributes(t)
	h := newHarness(t)
	on := h.start(workflows.TurnInput{SessionID: "sess-sa", SearchAttributes: true, Blocks: []tool.Block{readB("r1")}})
	h.waitEvent("end r1")
	h.mustUpdate(on, contract.CloseIntakeUpdate)
	h.result(on)
	d, err := h.c.DescribeWorkflowExecution(testenv.Context(t), on.GetID(), on.GetRunID())
	if err != nil {
		t.Fatal(err)
	}
	sa := d.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields()
	got := map[string]string{}
	for _, k := range []string{searchattr.SessionID, searchattr.Status} {
		var v string
		if p := sa[k]; p != nil {
			_ = converter.GetDefaultDataConverter().FromPayload(p, &v)
		}
		got[k] = v
	}
	if got[searchattr.SessionID] != "sess-sa" || got[searchattr.Status] != workflows.StatusDone {
		t.Errorf("search attributes = %v", got)
	}
	if n := upserts(t, h.c, on); n != 2 {
		t.Errorf("%d upsert events; want 2 (running with the session, then done)", n)
	}

	// A cancelled turn says so, instead of staying "running" for ever.
	cancelled := h.start(workflows.TurnInput{SessionID: "sess-sa", SearchAttributes: true, Blocks: []tool.Block{readB("r3")}})
	h.waitEvent("end r3")
	if err := h.c.CancelWorkflow(testenv.Context(t), cancelled.GetID(), cancelled.GetRunID()); err != nil {
		t.Fatal(err)
	}
	if err := cancelled.Get(testenv.Context(t), nil); !temporal.IsCanceledError(err) {
		t.Fatalf("cancelled turn ended with %v", err)
	}
	if got := statusOf(t, h.c, cancelled); got != workflows.StatusCancelled {
		t.Errorf("cancelled turn: ToolpipeStatus %q, want %q", got, workflows.StatusCancelled)
	}

	off := h.start(workflows.TurnInput{CloseIntake: true, Blocks: []tool.Block{readB("r2")}})
	h.result(off)
	if n := upserts(t, h.c, off); n != 0 {
		t.Errorf("%d upsert events with SearchAttributes off", n)
	}
}

// statusOf reads a workflow's ToolpipeStatus as the visibility store has it.
func statusOf(t *testing.T, c client.Client, run client.WorkflowRun) string {
	t.Helper()
	d, err := c.DescribeWorkflowExecution(testenv.Context(t), run.GetID(), run.GetRunID())
	if err != nil {
		t.Fatal(err)
	}
	var v string
	if p := d.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields()[searchattr.Status]; p != nil {
		_ = converter.GetDefaultDataConverter().FromPayload(p, &v)
	}
	return v
}

// upserts counts the upserts of toolpipe's own search attributes (GetVersion upserts
// Temporal's TemporalChangeVersion, which is not the turn's doing).
func upserts(t *testing.T, c client.Client, run client.WorkflowRun) int {
	t.Helper()
	iter := c.GetWorkflowHistory(testenv.Context(t), run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	n := 0
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		fields := ev.GetUpsertWorkflowSearchAttributesEventAttributes().GetSearchAttributes().GetIndexedFields()
		if _, ok := fields["TemporalChangeVersion"]; ev.GetEventType() == enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES && !ok {
			n++
		}
	}
	return n
}

// RenderTurnDetails keeps the table bounded: past detailsMaxRows it shows every
// unfinished tool and then the latest finished ones.
func TestRenderTurnDetailsBounded(t *testing.T) {
	var s workflows.TurnState
	for i := range 120 {
		st := scheduler.Yielded
		if i == 3 || i == 110 {
			st = scheduler.Executing
		}
		s.Tools = append(s.Tools, workflows.ToolState{ID: fmt.Sprintf("t%d", i), Description: "Bash(echo a | wc -l)", Status: st})
	}
	s.IntakeClosed = true
	md := workflows.RenderTurnDetails(s)
	rows := strings.Count(md, "\n| ") - 1 // minus the header
	if rows != 50 {
		t.Errorf("%d rows, want 50:\n%s", rows, md)
	}
	for _, want := range []string{"| 4 | `t3` |", "| 111 | `t110` |", "| 120 | `t119` |", "70 finished tool call(s) not shown.", "`Bash(echo a \\| wc -l)`"} {
		if !strings.Contains(md, want) {
			t.Errorf("details lack %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "| 1 | `t0` |") {
		t.Errorf("an old finished tool is shown although the table is full")
	}
}

// Calls waiting for approval come first (turn_approval.go renders them), a state
// the renderer does not know shows as it is, and the latest notices follow.
func TestRenderTurnDetailsApprovals(t *testing.T) {
	since := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	md := workflows.RenderTurnDetails(workflows.TurnState{
		IntakeClosed: true,
		Tools: []workflows.ToolState{
			{ID: "b1", Description: "Bash(git push)", Status: workflows.StatusAwaitingApproval},
			{ID: "r1", Description: "Read(/a)", Status: scheduler.Executing},
		},
		Pending: []workflows.PendingApproval{{ToolUseID: "b1", Description: "Bash(git push)", Reason: "rule Bash(git push:*)\nasks",
			Since: since, Deadline: since.Add(24 * time.Hour)}},
		Notices: []workflows.Notice{{ToolUseID: "b1", Text: "PreToolUse hooks took 0.8s"}},
	})
	for _, want := range []string{
		"**2 tool call(s)** · 1 awaiting_approval · 1 executing\n",
		"**Waiting for approval (1)**",
		"- `b1` `Bash(git push)`: rule Bash(git push:*) asks",
		"| 1 | `b1` | `Bash(git push)` | awaiting_approval |  |\n| 2 | `r1` | `Read(/a)` | executing |  |\n",
		"\n**Notices:**\n\n- `b1`: PreToolUse hooks took 0.8s\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("details lack %q:\n%s", want, md)
		}
	}
	if strings.Index(md, "Waiting for approval") > strings.Index(md, "| # |") {
		t.Errorf("the calls waiting for approval are not above the table:\n%s", md)
	}
}
