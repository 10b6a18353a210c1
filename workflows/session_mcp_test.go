package workflows_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/mcptest"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// A session with MCP lists its servers' tools once, offers them to the model beside
// the built-in tools, and hands them to its turns, which run them without listing
// again: the model's mcp__ calls reach the server and their results come back.
func TestSessionOffersAndRunsMCPTools(t *testing.T) {
	work := t.TempDir()
	notes := filepath.Join(work, "notes.txt")
	mcptest.Config(t, work, map[string]any{"test": mcptest.Stdio(t, notes)})
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{
			use("e1", "mcp__test__echo", map[string]any{"text": "hi"}),
			use("n1", "mcp__test__write_note", map[string]any{"text": "from the model"}),
		}},
		fakeanthropic.Response{Content: []wire.Block{text("done")}},
	)
	run := h.start(workflows.SessionInput{Prompt: "use the server", Workdir: work, MCP: true, Options: fastOptions()})
	if res := h.result(run); res.StopReason != "end_turn" || res.Turns != 2 {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	for i, r := range reqs {
		if !slices.Contains(r.Tools, "mcp__test__echo") || !slices.Contains(r.Tools, "mcp__test__write_note") || !slices.Contains(r.Tools, "Bash") {
			t.Errorf("request %d offers %v", i, r.Tools)
		}
	}
	results := userResults(reqs[1].Messages[2])
	if r := results["e1"]; r.IsError || r.Content != "echo: hi" {
		t.Fatalf("echo result %+v", r)
	}
	if r := results["n1"]; r.IsError {
		t.Fatalf("write_note result %+v", r)
	}
	if b, _ := os.ReadFile(notes); !strings.Contains(string(b), "from the model") {
		t.Fatalf("notes file: %q", b)
	}
	// One listing, by the session; its turns were given the tools.
	sessionTypes, _ := scheduled(t, testenv.History(t, h.c, run.GetID(), ""))
	if n := count(sessionTypes, contract.ListMCPToolsActivityName); n != 1 {
		t.Fatalf("the session listed %d times: %v", n, sessionTypes)
	}
	var turns int
	for _, ev := range testenv.History(t, h.c, run.GetID(), "") {
		if ev.GetEventType() != enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED {
			continue
		}
		turns++
		types, _ := scheduled(t, testenv.History(t, h.c, ev.GetStartChildWorkflowExecutionInitiatedEventAttributes().GetWorkflowId(), ""))
		if slices.Contains(types, contract.ListMCPToolsActivityName) {
			t.Fatalf("a turn listed the MCP tools again: %v", types)
		}
	}
	if turns != 1 { // the final, text-only reply starts none
		t.Fatalf("%d turns started", turns)
	}
}

func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}
