package workflows_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// updateWithStart starts a workflow and sends it an update in the same request, so
// that the update comes with the workflow's first task: the SDK runs its handler as
// soon as the handler is registered, before the rest of the workflow's start.
func updateWithStart(t *testing.T, c client.Client, queue, name string, input any, update string, args ...any) client.WorkflowRun {
	t.Helper()
	ctx := testenv.Context(t)
	op := c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{
		ID: fmt.Sprintf("%s-%s", t.Name(), queue), TaskQueue: queue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL,
	}, name, input)
	handle, err := c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: op,
		UpdateOptions:          client.UpdateWorkflowOptions{UpdateName: update, Args: args, WaitForStage: client.WorkflowUpdateStageCompleted},
	})
	if err != nil {
		t.Fatalf("update with start: %v", err)
	}
	if err := handle.Get(ctx, nil); err != nil {
		t.Fatalf("%s: %v", update, err)
	}
	run, err := op.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return c.GetWorkflow(ctx, run.GetID(), run.GetRunID())
}

// The message ended before the turn's first task (a model reply without tool calls):
// the turn must finish, not wait for a CloseIntake it has already had.
func TestCloseIntakeInTheFirstTask(t *testing.T) {
	h := realHarness(t)
	run := updateWithStart(t, h.c, h.queue, contract.TurnWorkflowName,
		workflows.TurnInput{SessionID: "s", Workdir: t.TempDir()}, contract.CloseIntakeUpdate)
	if res := h.result(run); len(res.Results) != 0 {
		t.Fatalf("results %+v", res.Results)
	}
}

// Blocks streamed before the turn's first task come after the start input's blocks.
func TestAddBlocksInTheFirstTask(t *testing.T) {
	h := realHarness(t)
	run := updateWithStart(t, h.c, h.queue, contract.TurnWorkflowName,
		workflows.TurnInput{SessionID: "s", Workdir: t.TempDir(), Blocks: []tool.Block{
			{ID: "a", Name: tool.BashName, Input: raw(map[string]any{"command": "echo a"})},
		}},
		contract.AddBlocksUpdate, []tool.Block{{ID: "b", Name: tool.BashName, Input: raw(map[string]any{"command": "echo b"})}})
	h.mustUpdate(run, contract.CloseIntakeUpdate)
	res := h.result(run)
	if len(res.Results) != 2 || res.Results[0].ToolUseID != "a" || res.Results[1].ToolUseID != "b" ||
		res.Results[0].Content != "a" || res.Results[1].Content != "b" {
		t.Fatalf("results %+v", res.Results)
	}
}

// A message sent with the session's first task is kept, after the prompt.
func TestSendInTheFirstTask(t *testing.T) {
	h := newAgentHarness(t, fakeanthropic.Response{Content: []wire.Block{text("both read")}})
	run := updateWithStart(t, h.c, h.queue, contract.SessionWorkflowName,
		workflows.SessionInput{SessionID: "s1", Prompt: "the prompt", Workdir: h.work, Options: fastOptions()},
		contract.SendUpdate, workflows.SendRequest{Text: "the message"})
	if res := h.result(run); res.Text != "both read" {
		t.Fatalf("result %+v", res)
	}
	sent := fmtMessages(h.fake.Requests()[0].Messages)
	p, m := strings.Index(sent, "the prompt"), strings.Index(sent, "the message")
	if p < 0 || m < p {
		t.Fatalf("the first request has the prompt at %d and the message at %d: %s", p, m, sent)
	}
}

func fmtMessages(ms []conversation.Message) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(fmtMessage(m))
	}
	return b.String()
}
