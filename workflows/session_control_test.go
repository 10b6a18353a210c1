package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// configure sends ConfigureUpdate and waits for it.
func (h *agentHarness) configure(id string, req workflows.ConfigureRequest) error {
	handle, err := h.c.UpdateWorkflow(testenv.Context(h.t), client.UpdateWorkflowOptions{
		WorkflowID: id, UpdateName: workflows.ConfigureUpdate, Args: []any{req},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return err
	}
	return handle.Get(testenv.Context(h.t), nil)
}

// ConfigureUpdate changes what comes after it: the next model call uses the new
// model, the next turn the new permission mode (a Write that default mode would
// ask about runs under acceptEdits); a mode the session cannot take is refused.
func TestConfigureChangesTheCallsToCome(t *testing.T) {
	hold := make(chan struct{})
	h := newIdleAgentHarness(t)
	target := filepath.Join(h.work, "made.txt")
	if err := os.WriteFile(filepath.Join(h.work, "notes.txt"), []byte("n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.runScript(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{use("r1", "Read", map[string]any{"file_path": filepath.Join(h.work, "notes.txt")})}, HoldBeforeEnd: hold},
		{Content: []wire.Block{use("w1", "Write", map[string]any{"file_path": target, "content": "x\n"})}},
		{Content: []wire.Block{text("Written.")}},
	}})
	s := policy(t, h.work, permissions.Default, nil, nil, nil)
	run := h.start(workflows.SessionInput{Prompt: "Write it.", Settings: s, Options: fastOptions(),
		Model: workflows.ModelOptions{Model: "claude-first"}})
	if err := h.fake.WaitRequests(testenv.Context(t), 1); err != nil {
		t.Fatal(err)
	}
	if err := h.configure(run.GetID(), workflows.ConfigureRequest{PermissionMode: "sometimes"}); err == nil || !strings.Contains(err.Error(), "sometimes") {
		t.Fatalf("an unknown mode must be refused, naming it: %v", err)
	}
	if err := h.configure(run.GetID(), workflows.ConfigureRequest{PermissionMode: "acceptEdits", Model: "claude-second"}); err != nil {
		t.Fatal(err)
	}
	close(hold)
	res := h.result(run)
	if b, err := os.ReadFile(target); err != nil || string(b) != "x\n" {
		t.Fatalf("the Write of the turn after the change must run under acceptEdits: %v %q (result %+v)", err, b, res)
	}
	reqs := h.fake.Requests()
	if len(reqs) != 3 || reqs[0].Model != "claude-first" || reqs[1].Model != "claude-second" {
		t.Fatalf("models asked: %d requests %+v", len(reqs), reqs)
	}
}

// InterruptPromptSignal stops the running Bash and ends the prompt with its result
// stored, without another model call; the next prompt continues the conversation.
func TestInterruptPromptEndsThePrompt(t *testing.T) {
	h := newIdleAgentHarness(t)
	started := filepath.Join(h.work, "started")
	h.runScript(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{use("b1", "Bash", map[string]any{"command": "touch started && sleep 30"})}},
		{Content: []wire.Block{text("After the interrupt.")}},
	}})
	run := h.start(workflows.SessionInput{Prompt: "Run it.", Options: fastOptions()})
	deadline := time.Now().Add(30 * time.Second)
	for _, err := os.Stat(started); err != nil; _, err = os.Stat(started) {
		if time.Now().After(deadline) {
			t.Fatal("the Bash call never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := h.c.SignalWorkflow(testenv.Context(t), run.GetID(), "", workflows.InterruptPromptSignal, nil); err != nil {
		t.Fatal(err)
	}
	res := h.result(run)
	if res.StopReason != workflows.StopInterrupted || len(h.fake.Requests()) != 1 {
		t.Fatalf("the prompt must end at the interrupt: %+v after %d requests", res, len(h.fake.Requests()))
	}
	msgs := h.storedMessages(res.Conversation)
	last := msgs[len(msgs)-1]
	if r, ok := userResults(last)["b1"]; !ok || !r.IsError || !strings.Contains(r.Content, "interrupt") {
		t.Fatalf("the interrupted call's result must be stored: %+v", last)
	}
}
