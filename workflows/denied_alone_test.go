package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// denyMarked is a PreToolUse hook denying (exit 2) the Bash calls whose input says
// DENYME, and letting the others through.
const denyMarked = `if grep -q DENYME; then echo "not this one" >&2; exit 2; fi`

// runDeniedBeside runs a Bash call a hook denies beside one that is still running
// (it waits for a file the test creates once the denial is in), and returns the
// turn. st is the turn's state once the denial is in: whether the sibling cascade
// began.
func runDeniedBeside(t *testing.T, h *harness) (run client.WorkflowRun, st workflows.TurnState, res workflows.TurnResult) {
	t.Helper()
	dir := t.TempDir()
	// A plain file, not a FIFO: a FIFO's data is lost when the writer closes before
	// the reader opens, and the command may not have reached its read yet.
	wait := "until [ -e gate ]; do sleep 0.01; done; echo released"
	run = h.start(workflows.TurnInput{Workdir: dir, CloseIntake: true, Settings: withHooks(group("Bash", denyMarked), nil, nil),
		Blocks: []tool.Block{bashB("d1", "echo DENYME"), bashB("s1", wait)}})
	// s1 cannot end before the gate exists unless the denial cancelled it.
	st = h.waitState(run, "d1 denied, s1 started", func(st workflows.TurnState) bool {
		done := func(id string) bool {
			return toolStatus(st, id) != scheduler.Executing && toolStatus(st, id) != scheduler.Queued
		}
		return done("d1") && (toolStatus(st, "s1") == scheduler.Executing || done("s1"))
	})
	if err := os.WriteFile(filepath.Join(dir, "gate"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return run, st, h.result(run)
}

// A Bash call that a hook denies never ran, so, as in Claude Code, it cancels no
// sibling: the call running beside it finishes with its own output (change
// denied-call-alone). Only a Bash command that ran and failed cancels its siblings.
func TestDeniedBashCancelsNothing(t *testing.T) {
	_, st, res := runDeniedBeside(t, realHarness(t))
	if st.Errored {
		t.Fatal("the denied Bash started the sibling cascade")
	}
	if r := byID(res.Results, "d1"); !r.IsError || !strings.HasPrefix(r.Content, "PreToolUse:Bash hook error: [") || !strings.HasSuffix(r.Content, "]: not this one") {
		t.Fatalf("denied call: %+v", r)
	}
	if r := byID(res.Results, "s1"); r.IsError || r.Content != "released" {
		t.Fatalf("the call beside a denied Bash: %+v, want its own output", r)
	}
}

// recordDeniedAloneHistory records the turn of TestDeniedBashCancelsNothing.
func recordDeniedAloneHistory(t *testing.T, path string) {
	h := realHarness(t)
	run, _, _ := runDeniedBeside(t, h)
	testenv.WriteHistory(t, path, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
}
