package workflows_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// What the Claude Agent SDK's canUseTool answers (cmd/toolpipe-claude): a pending
// call shows its input; a denial's message is the whole text the model reads, as
// Claude Code passes it on; an approval's updatedInput is the input that runs, and
// one that fails the tool's schema is refused without running.
func TestApprovalAnswersOfTheSDK(t *testing.T) {
	work, _ := dirs(t)
	s := policy(t, work, permissions.Default, nil, nil, nil)
	s.AskTimeout = time.Hour
	h := realHarness(t)
	run := h.start(workflows.TurnInput{Workdir: work, CloseIntake: true, Settings: s, Blocks: []tool.Block{
		bashB("d1", "touch denied"), bashB("u2", "touch model-asked"), bashB("v3", "touch invalid"),
	}})
	st := h.waitState(run, "d1 pending", func(st workflows.TurnState) bool { return strings.Join(pendingIDs(st), ",") == "d1" })
	if !jsonEqual(st.Pending[0].Input, bashB("d1", "touch denied").Input) {
		t.Fatalf("the pending call's input: %s", st.Pending[0].Input)
	}
	h.mustUpdate(run, workflows.DenyUpdate, workflows.ApprovalRequest{ToolUseID: "d1", Message: "Bash is not allowed in this test."})
	h.waitState(run, "u2 pending", func(st workflows.TurnState) bool { return strings.Join(pendingIDs(st), ",") == "u2" })
	h.mustUpdate(run, workflows.ApproveUpdate, workflows.ApprovalRequest{ToolUseID: "u2",
		UpdatedInput: json.RawMessage(`{"command":"touch approver-chose"}`)})
	h.waitState(run, "v3 pending", func(st workflows.TurnState) bool { return strings.Join(pendingIDs(st), ",") == "v3" })
	h.mustUpdate(run, workflows.ApproveUpdate, workflows.ApprovalRequest{ToolUseID: "v3",
		UpdatedInput: json.RawMessage(`{"cmd":"touch invalid-input-ran"}`)})
	res := h.result(run)
	if r := byID(res.Results, "d1"); !r.IsError || r.Content != "Bash is not allowed in this test." {
		t.Fatalf("d1: the model must read the SDK's message as it is: %+v", r)
	}
	for name, want := range map[string]bool{"denied": false, "model-asked": false, "approver-chose": true, "invalid-input-ran": false} {
		if _, err := os.Stat(filepath.Join(work, name)); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", name, err == nil, want)
		}
	}
	if r := byID(res.Results, "v3"); !r.IsError || !strings.Contains(r.Content, "in the input the approval gave") {
		t.Fatalf("v3: %+v", r)
	}
	replay(t, h, run)
}
