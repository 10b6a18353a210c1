package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// resultOf is the tool_result answering id in the requests, or fails the test.
func resultOf(t *testing.T, reqs []fakeanthropic.Request, id string) wire.Block {
	t.Helper()
	for i := len(reqs) - 1; i >= 0; i-- {
		for _, m := range reqs[i].Messages {
			if b, ok := userResults(m)[id]; ok {
				return b
			}
		}
	}
	t.Fatalf("no tool_result for %s", id)
	return wire.Block{}
}

// taskListReplayID is the recorded task-list session's workflow id.
const taskListReplayID = "session-tasklist-recorded"

// The task list is the session's state: tasks created in the first run are
// updated after continue-as-new and after compactions (a 100-token window makes
// the session compact before every call after the first), and TaskList and TaskGet
// then answer with Claude Code 2.1.328's texts (captured from it with
// CLAUDE_CODE_ENABLE_TODO_TOOLS=1, which -p needs to offer these tools). The
// first run's history is committed and replays (TestTaskListReplay).
func TestTaskListSurvivesContinueAsNewAndCompaction(t *testing.T) {
	summaries := make([]fakeanthropic.Response, 8)
	for i := range summaries {
		summaries[i] = fakeanthropic.Response{When: "nearly full", Content: []wire.Block{text("Summary: tasks are being tracked.")}}
	}
	h := newAgentHarness(t, append(summaries,
		fakeanthropic.Response{Content: []wire.Block{use("c1", "TaskCreate", map[string]any{"subject": "Write tests", "description": "Add the tests", "activeForm": "Writing tests"})}},
		fakeanthropic.Response{Content: []wire.Block{use("c2", "TaskCreate", map[string]any{"subject": "Ship", "description": "Ship it"})}},
		fakeanthropic.Response{Content: []wire.Block{use("u1", "TaskUpdate", map[string]any{"taskId": "2", "addBlockedBy": []string{"1"}, "owner": "me"})}},
		fakeanthropic.Response{Content: []wire.Block{use("u2", "TaskUpdate", map[string]any{"taskId": "1", "status": "in_progress"})}},
		fakeanthropic.Response{Content: []wire.Block{use("l1", "TaskList", map[string]any{}), use("g1", "TaskGet", map[string]any{"taskId": "2"}),
			use("g2", "TaskGet", map[string]any{"taskId": "99"})}},
		fakeanthropic.Response{Content: []wire.Block{text("done")}},
	)...)
	opts := fastOptions()
	opts.ContinueAsNewEvery = 2
	id := taskListReplayID
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") != "1" {
		id = t.Name() + "-" + h.queue
	}
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: id, TaskQueue: h.queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: "tl", Prompt: "track the work in a task list", Workdir: h.work,
			Options: opts, Model: workflows.ModelOptions{ContextWindow: 100}})
	if err != nil {
		t.Fatal(err)
	}
	firstRun := run.GetRunID()
	if res := h.result(run); res.Text != "done" {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	summariesAsked := 0
	for _, r := range reqs {
		if strings.Contains(lastUserText(r), "nearly full") {
			summariesAsked++
		}
	}
	desc, err := h.c.DescribeWorkflowExecution(testenv.Context(t), id, "")
	if err != nil {
		t.Fatal(err)
	}
	if summariesAsked < 3 || desc.WorkflowExecutionInfo.Execution.RunId == firstRun {
		t.Fatalf("%d compactions, last run %s (first %s): the list must outlive both", summariesAsked, desc.WorkflowExecutionInfo.Execution.RunId, firstRun)
	}
	for id, want := range map[string]string{
		"c1": "Task #1 created successfully: Write tests",
		"c2": "Task #2 created successfully: Ship",
		"u1": "Updated task #2 owner, blockedBy",
		"u2": "Updated task #1 status",
		"l1": "#1 [in_progress] Write tests\n#2 [pending] Ship (me) [blocked by #1]",
		"g1": "Task #2: Ship\nStatus: pending\nDescription: Ship it\nBlocked by: #1",
		"g2": "Task not found",
	} {
		if got := resultOf(t, reqs, id); got.Content != want || got.IsError {
			t.Errorf("%s: %q (error %v), want Claude Code's %q", id, got.Content, got.IsError, want)
		}
	}
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		testenv.WriteHistory(t, filepath.FromSlash("testdata/session_history_tasklist.json"), testenv.History(t, h.c, id, firstRun))
	}
}

// TestTaskListReplay replays the recorded first run of the task-list session.
func TestTaskListReplay(t *testing.T) {
	replayHistory(t, "testdata/session_history_tasklist.json", taskListReplayID)
}
