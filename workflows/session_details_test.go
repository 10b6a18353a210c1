package workflows_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/searchattr"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// Issue 7: a session has a static summary (set by its starter) and current details in
// markdown that follow its phase, turns, tokens and budget; its handlers carry
// descriptions. All of it is read as the Temporal UI reads it.
func TestSessionDetails(t *testing.T) {
	hold := make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(hold) }) }
	t.Cleanup(release)
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{
			text("Counting."), use("d1", "Bash", map[string]any{"command": "seq 1 2000"}),
		}, HoldBeforeEnd: hold},
		fakeanthropic.Response{Content: []wire.Block{text("counted")}},
	)
	opts := fastOptions()
	opts.BudgetChars = 5_000
	in := workflows.SessionInput{SessionID: "det", Prompt: "Count   to two thousand, please, and tell me when you are done with it all",
		Workdir: h.work, Options: opts}
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{
		ID: t.Name() + "-" + h.queue, TaskQueue: h.queue,
		StaticSummary: workflows.SessionStaticSummary(in), StaticDetails: workflows.SessionStaticDetails(in),
	}, contract.SessionWorkflowName, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.fake.WaitRequests(testenv.Context(t), 1); err != nil {
		t.Fatal(err)
	}
	// The Bash block has streamed (the message's end is held): the model activity had
	// the session start the call's Turn, the first, before it handed the block over.
	var md *sdkpb.WorkflowMetadata
	poll(t, "the model call's turn to start", func() bool {
		md = metadata(t, h.c, run)
		return strings.Contains(md.GetCurrentDetails(), "current turn")
	})
	now := md.GetCurrentDetails()
	for _, want := range []string{
		"**calling the model (call 1) · running turn 1** · 0 of at most 100 model calls\n",
		"| current turn | `" + run.GetID() + "/turn-1` ",
		"| tokens | 0 in, 0 cache write, 0 cache read, 0 out |",
		"| budget | last results 0 of 5000 chars · 0 results judged, 0 replaced |",
	} {
		if !strings.Contains(now, want) {
			t.Errorf("current details while streaming lack %q:\n%s", want, now)
		}
	}
	described := descriptions(md)
	for _, name := range []string{contract.SessionStateQuery, contract.EventsQuery, contract.SendUpdate,
		contract.StartTaskUpdate, contract.OpenTurnUpdate, contract.SessionInterruptSignal} {
		if described[name] == "" {
			t.Errorf("%s has no description in the workflow metadata: %v", name, described)
		}
	}

	release()
	res := h.result(run)
	// The totals are what the API reported, call by call, not the session's own sums.
	var reported fakeanthropic.Usage
	last := h.fake.Requests()[len(h.fake.Requests())-1].Usage
	for _, r := range h.fake.Requests() {
		reported.InputTokens += r.Usage.InputTokens
		reported.OutputTokens += r.Usage.OutputTokens
		reported.CacheCreationInputTokens += r.Usage.CacheCreationInputTokens
		reported.CacheReadInputTokens += r.Usage.CacheReadInputTokens
	}
	if len(h.fake.Requests()) != 2 || reported.TotalInput() == 0 || reported.OutputTokens == 0 {
		t.Fatalf("the fake reported %+v over %d requests", reported, len(h.fake.Requests()))
	}
	final := metadata(t, h.c, run).GetCurrentDetails()
	for _, want := range []string{
		"**done: end_turn** · 2 of at most 100 model calls\n",
		fmt.Sprintf("| tokens | %d in, %d cache write, %d cache read, %d out |", reported.InputTokens,
			reported.CacheCreationInputTokens, reported.CacheReadInputTokens, reported.OutputTokens),
		fmt.Sprintf("| last call | %d in, %d cache write, %d cache read, %d out · context %d of 200000 tokens |",
			last.InputTokens, last.CacheCreationInputTokens, last.CacheReadInputTokens, last.OutputTokens, last.TotalInput()),
		fmt.Sprintf("| cost | $%.4f (estimated, claude-sonnet-4-5 prices) |",
			(3*float64(reported.InputTokens)+15*float64(reported.OutputTokens)+3.75*float64(reported.CacheCreationInputTokens)+0.3*float64(reported.CacheReadInputTokens))/1e6),
		"· 1 results judged, 1 replaced |",
		"| last stop reason | `end_turn` |",
		"| history turn 1 | \"Count to two thousand, please,", // the history, to pick a turn to rewind to
		"| history turn - | reply: counted · ",
	} {
		if !strings.Contains(final, want) {
			t.Errorf("final details lack %q:\n%s", want, final)
		}
	}
	if strings.Contains(final, "current turn") || res.Usage.Context() == 0 {
		t.Errorf("final details (usage %+v):\n%s", res.Usage, final)
	}

	d, err := h.c.DescribeWorkflowExecution(testenv.Context(t), run.GetID(), "")
	if err != nil {
		t.Fatal(err)
	}
	var summary string
	if err := converter.GetDefaultDataConverter().FromPayload(d.GetExecutionConfig().GetUserMetadata().GetSummary(), &summary); err != nil {
		t.Fatal(err)
	}
	if got := workflows.SessionStaticSummary(workflows.SessionInput{SessionID: "s9"}); got != "agent: session s9" {
		t.Errorf("static summary without a prompt: %q", got)
	}
	if want := "agent: Count to two thousand, please, and tell me when you are don…"; summary != want {
		t.Errorf("static summary %q, want %q", summary, want)
	}
}

// A session in a namespace with toolpipe's search attributes tags itself and its
// turns with the session id, and its status ends as done: a visibility query finds
// every workflow of a session, and the sessions still running.
func TestSessionSearchAttributes(t *testing.T) {
	ensureSearchAttributes(t)
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{use("t1", "Bash", map[string]any{"command": "echo hi"})}},
		fakeanthropic.Response{Content: []wire.Block{text("done")}},
	)
	run := h.start(workflows.SessionInput{SessionID: "sess-sa", Prompt: "go", Options: fastOptions(), SearchAttributes: true})
	h.result(run)
	attrs := func(id string) map[string]string {
		d, err := h.c.DescribeWorkflowExecution(testenv.Context(t), id, "")
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for k, p := range d.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields() {
			var v string
			_ = converter.GetDefaultDataConverter().FromPayload(p, &v)
			got[k] = v
		}
		return got
	}
	if got := attrs(run.GetID()); got[searchattr.SessionID] != "sess-sa" || got[searchattr.Status] != workflows.StatusDone {
		t.Fatalf("session search attributes %v", got)
	}
	if got := attrs(run.GetID() + "/turn-1"); got[searchattr.SessionID] != "sess-sa" || got[searchattr.Status] != workflows.StatusDone {
		t.Fatalf("turn search attributes %v", got)
	}
}

// The phases are wire values: the state query's JSON (read by the CLI and by any
// client of the query) carries each as the word it always had.
func TestSessionPhaseWire(t *testing.T) {
	for phase, want := range map[workflows.SessionPhase]string{
		workflows.PhaseIdle: "idle", workflows.PhaseModel: "model", workflows.PhaseTools: "tools",
		workflows.PhaseBackground: "background", workflows.PhaseCompacting: "compacting", workflows.PhaseDone: "done",
	} {
		b, err := json.Marshal(workflows.SessionState{Phase: phase})
		if err != nil || !strings.Contains(string(b), `"phase":"`+want+`"`) {
			t.Errorf("phase %q marshals as %s (%v), want \"phase\":%q", phase, b, err, want)
		}
	}
}
