package workflows_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// The worker is stopped while the model is still streaming a message whose first
// tool has run; a new worker finishes the session. The model call is retried on the
// new worker without asking the model again (the delivered tool_use is kept), and
// neither the completed tool nor the model call runs twice.
func TestWorkerLostMidSession(t *testing.T) {
	work := t.TempDir()
	hold := make(chan struct{})
	t.Cleanup(func() { close(hold) })
	h := newIdleAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{
			use("w1", "Bash", map[string]any{"command": "echo ran >> count"}),
			text("and more to say"),
		}, HoldBeforeEnd: hold},
		fakeanthropic.Response{Content: []wire.Block{text("finished")}},
	)
	w1 := h.startWorker()
	run := h.start(workflows.SessionInput{Prompt: "go", Workdir: work, Options: fastOptions()})
	poll(t, "the first tool to run", func() bool {
		b, _ := os.ReadFile(filepath.Join(work, "count"))
		return string(b) == "ran\n"
	})
	w1.Stop()
	h.startWorker()
	res := h.result(run)
	if res.Text != "finished" {
		t.Fatalf("result %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "count")); string(b) != "ran\n" {
		t.Fatalf("count is %q: the completed tool ran again", b)
	}
	reqs := h.fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2: the streamed message was asked again", len(reqs))
	}
	if m := reqs[1].Messages; len(m) != 3 || len(m[1].Content) != 1 || m[1].Content[0].ID != "w1" {
		t.Fatalf("second request %+v", m)
	}
}

// budgetScript makes every turn's results overflow the budget, so that each model
// call decides replacements.
func budgetScript() []fakeanthropic.Response {
	var rs []fakeanthropic.Response
	for turn := 0; turn < 3; turn++ {
		var blocks []wire.Block
		for i, n := range []int{4000, 3000, 2000} {
			blocks = append(blocks, use(fmt.Sprintf("b%d_%d", turn, i), "Bash",
				map[string]any{"command": fmt.Sprintf("seq %d %d", turn+1, n+turn)}))
		}
		rs = append(rs, fakeanthropic.Response{Content: blocks})
	}
	return append(rs, fakeanthropic.Response{Content: []wire.Block{text("done")}})
}

// Continue-as-new after every model call keeps the budget decisions byte-identical to
// a run that never continued: the same requests reach the model, byte for byte, and
// the final budget state is the same.
func TestContinueAsNewKeepsBudgetDecisions(t *testing.T) {
	var firstRun string
	runOnce := func(every int) (*agentHarness, workflows.SessionResult, []string, string) {
		h := newAgentHarness(t, budgetScript()...)
		opts := fastOptions()
		opts.BudgetChars, opts.ContinueAsNewEvery = 20_000, every
		run := h.start(workflows.SessionInput{SessionID: "cmp", Prompt: "count", Options: opts})
		firstRun = run.GetRunID()
		res := h.result(run)
		var bodies []string
		for _, r := range h.fake.Requests() {
			bodies = append(bodies, strings.ReplaceAll(string(r.Body), h.state, "<STATE>"))
		}
		d, err := h.c.DescribeWorkflowExecution(testenv.Context(t), run.GetID(), "")
		if err != nil {
			t.Fatal(err)
		}
		return h, res, bodies, d.WorkflowExecutionInfo.Execution.RunId
	}
	plain, plainRes, plainBodies, _ := runOnce(0)
	cont, contRes, contBodies, lastRun := runOnce(1)
	if lastRun == firstRun {
		t.Fatal("the session never continued as new")
	}
	if len(plainBodies) != 4 || len(contBodies) != 4 {
		t.Fatalf("%d and %d requests, want 4 each", len(plainBodies), len(contBodies))
	}
	for i := range plainBodies {
		if plainBodies[i] != contBodies[i] {
			t.Fatalf("request %d differs after continue-as-new:\n%.400s\n%.400s", i+1, plainBodies[i], contBodies[i])
		}
	}
	if n := strings.Count(plainBodies[3], "Output too large"); n != 6 {
		t.Fatalf("the last request has %d replaced results, want 6 (two per turn)", n)
	}
	norm := func(h *agentHarness, st *budget.State) string {
		b, _ := json.Marshal(st)
		return strings.ReplaceAll(string(b), h.state, "<STATE>")
	}
	if a, b := norm(plain, plainRes.Budget), norm(cont, contRes.Budget); a != b {
		t.Fatalf("budget state differs:\n%s\n%s", a, b)
	}
	// The replaced results' originals are where the stubs say.
	data, err := os.ReadFile(filepath.Join(cont.state, "cmp", "tool-results", "b0_0.txt"))
	if err != nil || !strings.HasSuffix(string(data), "\n4000") {
		t.Fatalf("persisted original: %v %.40q", err, data)
	}
}
