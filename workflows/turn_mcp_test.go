package workflows_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/mcptest"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// scheduled lists the activity types and summaries a history scheduled.
func scheduled(t *testing.T, events []*historypb.HistoryEvent) (types, summaries []string) {
	dc := converter.GetDefaultDataConverter()
	for _, ev := range events {
		if ev.GetEventType() != enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED {
			continue
		}
		var s string
		_ = dc.FromPayload(ev.GetUserMetadata().GetSummary(), &s)
		types = append(types, ev.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName())
		summaries = append(summaries, s)
	}
	return types, summaries
}

// A turn with MCP lists the tools once (ListMCPTools), holds blocks that stream in
// meanwhile until it knows them, runs every MCP call as one MCPCall activity titled
// with the tool and its input, and replays deterministically.
// A turn given the tools (as a Session will give them) does not list again.
func TestTurnMCPListsAndCalls(t *testing.T) {
	h := realHarness(t)
	work := t.TempDir()
	// The server starts only once the test opens the fifo, so the listing is
	// still running when more blocks stream in.
	fifo := filepath.Join(t.TempDir(), "start")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	mcptest.Config(t, work, map[string]any{"test": map[string]any{
		"command": "sh", "args": []string{"-c", `cat "$0" >/dev/null; exec "$1"`, fifo, mcptest.Build(t)},
		"env": map[string]string{"MCPTEST_NOTES": filepath.Join(work, "notes.txt")},
	}})
	run := h.start(workflows.TurnInput{Workdir: work, MCP: true, Blocks: []tool.Block{
		{ID: "e1", Name: "mcp__test__echo", Input: raw(map[string]any{"text": "hi"})},
	}})
	handle, err := h.c.UpdateWorkflow(testenv.Context(t), client.UpdateWorkflowOptions{
		WorkflowID: run.GetID(), RunID: run.GetRunID(), UpdateName: contract.AddBlocksUpdate,
		Args: []any{[]tool.Block{
			{ID: "n1", Name: "mcp__test__write_note", Input: raw(map[string]any{"text": "note"})},
			{ID: "u1", Name: "mcp__test__missing", Input: raw(map[string]any{})},
		}},
		WaitForStage: client.WorkflowUpdateStageAccepted,
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0) // the server starts
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	var tracked int
	if err := handle.Get(testenv.Context(t), &tracked); err != nil || tracked != 3 {
		t.Fatalf("AddBlocks after the listing: %d tracked, %v", tracked, err)
	}
	h.mustUpdate(run, contract.CloseIntakeUpdate)
	res := h.result(run)
	got := map[string]tool.Result{}
	for _, r := range res.Results {
		got[r.ToolUseID] = r
	}
	if got["e1"].Content != "echo: hi" || !strings.HasPrefix(got["n1"].Content, `noted "note"`) ||
		got["u1"].Content != "<tool_use_error>Error: No such tool available: mcp__test__missing</tool_use_error>" || len(res.Results) != 3 {
		t.Fatalf("results %+v", res.Results)
	}
	events := testenv.History(t, h.c, run.GetID(), run.GetRunID())
	types, summaries := scheduled(t, events)
	// The unknown MCP tool is a failed RefusedCall record, under its summary.
	if want := []string{contract.ListMCPToolsActivityName, contract.MCPCallActivityName, contract.RefusedCallActivityName, contract.MCPCallActivityName}; !slices.Equal(types, want) {
		t.Fatalf("activities %v, want %v", types, want)
	}
	if summaries[1] != "mcp__test__echo: `{\"text\":\"hi\"}`" || summaries[2] != "mcp__test__missing: `{}` (unknown tool)" ||
		summaries[3] != "mcp__test__write_note: `{\"text\":\"note\"}`" {
		t.Errorf("summaries %q", summaries)
	}
	if err := replayEvents(&historypb.History{Events: events}, ""); err != nil {
		t.Fatalf("replay: %v", err)
	}

	// The tools given: no listing, same behaviour; readOnlyHint makes echo safe.
	specs := []tool.MCPSpec{
		{Name: "mcp__test__echo", InputSchema: []byte(`{"type":"object","properties":{"text":{"type":"string"}}}`), ReadOnly: true},
	}
	run = h.start(workflows.TurnInput{Workdir: work, MCP: true, MCPTools: specs, CloseIntake: true, Blocks: []tool.Block{
		{ID: "e2", Name: "mcp__test__echo", Input: raw(map[string]any{"text": "given"})},
		{ID: "n2", Name: "mcp__test__write_note", Input: raw(map[string]any{"text": "x"})},
	}})
	res = h.result(run)
	if res.Results[0].Content != "echo: given" || res.Results[1].Content != "<tool_use_error>Error: No such tool available: mcp__test__write_note</tool_use_error>" {
		t.Fatalf("results %+v", res.Results)
	}
	if types, _ := scheduled(t, testenv.History(t, h.c, run.GetID(), run.GetRunID())); !slices.Equal(types, []string{contract.RefusedCallActivityName, contract.MCPCallActivityName}) {
		t.Fatalf("activities %v", types)
	}
}
