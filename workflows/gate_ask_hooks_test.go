package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/testfs"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// PermissionRequest hooks answer an ask: allow runs the call without a person,
// deny refuses it with the hook's message; a call they leave undecided waits.
func TestPermissionRequestHookAnswersAsk(t *testing.T) {
	work, _ := dirs(t)
	s := policy(t, work, permissions.Default, nil, nil, []string{"Bash(touch:*)"})
	s.AskTimeout = time.Hour
	s.Hooks.PermissionRequest = []hooks.Group{{Matcher: "Bash", Hooks: []hooks.Command{{Command: `in=$(cat); ` +
		`case "$in" in *'touch allowed'*) echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';; ` +
		`*'touch denied'*) echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not today"}}}';; esac; ` +
		`printf '%s\n' "$in" >> "$CLAUDE_PROJECT_DIR/permission-requests.jsonl"`}}}}
	s.ProjectDir = work
	h := realHarness(t)
	run := h.start(workflows.TurnInput{Workdir: work, CloseIntake: true, Settings: s, Blocks: []tool.Block{
		// The denial last: a refused Bash is an error result, which cancels the calls after it.
		bashB("a1", "touch allowed"), bashB("w1", "touch waited"), bashB("d1", "touch denied"),
	}})
	h.waitState(run, "w1 pending", func(st workflows.TurnState) bool { return strings.Join(pendingIDs(st), ",") == "w1" })
	h.mustUpdate(run, contract.ApproveUpdate, workflows.ApprovalRequest{ToolUseID: "w1"})
	res := h.result(run)
	if r := byID(res.Results, "a1"); r.IsError {
		t.Fatalf("a1: %+v", r)
	}
	if r := byID(res.Results, "d1"); !r.IsError || !strings.Contains(r.Content, "denied by a PermissionRequest hook. not today") {
		t.Fatalf("d1: %+v", r)
	}
	for _, f := range []string{"allowed", "waited"} {
		if _, err := os.Stat(filepath.Join(work, f)); err != nil {
			t.Fatalf("%s did not run", f)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "denied")); err == nil {
		t.Fatal("the denied call ran")
	}
	ins := testfs.ReadJSONValues(t, filepath.Join(work, "permission-requests.jsonl"))
	if len(ins) != 3 || ins[0]["hook_event_name"] != "PermissionRequest" || ins[0]["tool_name"] != "Bash" ||
		ins[0]["permission_mode"] != "default" || ins[0]["permission_suggestions"] == nil {
		t.Fatalf("PermissionRequest inputs: %v", ins)
	}
}

// Notification hooks are told when a call waits for approval.
func TestNotificationHookWhenApprovalWaits(t *testing.T) {
	work, _ := dirs(t)
	s := policy(t, work, permissions.Default, nil, nil, []string{"Bash(touch:*)"})
	s.AskTimeout = time.Hour
	s.ProjectDir = work
	s.Hooks.Notification = []hooks.Group{{Matcher: "permission_prompt", Hooks: []hooks.Command{{Command: script(t, "record", "sh")}}}}
	h := realHarness(t)
	run := h.start(workflows.TurnInput{Workdir: work, CloseIntake: true, Settings: s, Blocks: []tool.Block{bashB("w1", "touch waited")}})
	h.waitState(run, "w1 pending", func(st workflows.TurnState) bool { return len(st.Pending) == 1 })
	log := filepath.Join(work, "hook-inputs.jsonl")
	deadline := time.Now().Add(30 * time.Second)
	for { // the hook runs beside the wait: poll for its trace, there is no event to await
		if b, _ := os.ReadFile(log); len(b) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the Notification hook did not run while the call waited")
		}
		time.Sleep(50 * time.Millisecond)
	}
	h.mustUpdate(run, contract.DenyUpdate, workflows.ApprovalRequest{ToolUseID: "w1"})
	h.result(run)
	in := testfs.ReadJSONValues(t, log)[0]
	if in["hook_event_name"] != "Notification" || in["notification_type"] != "permission_prompt" ||
		in["message"] != "Claude needs your permission to use Bash" || in["tool_name"] != nil {
		t.Fatalf("Notification input: %v", in)
	}
}
