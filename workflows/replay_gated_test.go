package workflows_test

import (
	"os"
	"path/filepath"
	"testing"

	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// gatedHistory is a Turn with a permission policy recorded after read-only Bash
// paths were confined (GetVersion "bash-read-paths" 1): a read inside, one outside
// that asks and times out. Recorded again with
// TOOLPIPE_RECORD_GATED_HISTORY=1.
const gatedHistory = "testdata/turn_history_bash_read_paths.json"

func TestTurnReplayBashReadPaths(t *testing.T) {
	if os.Getenv("TOOLPIPE_RECORD_GATED_HISTORY") == "1" {
		work, outside := dirs(t)
		h := realHarness(t)
		run := h.start(workflows.TurnInput{Workdir: work, CloseIntake: true,
			Settings: policy(t, work, permissions.Default, nil, nil, nil),
			Blocks:   []tool.Block{bashB("in", "cat notes.txt"), bashB("out", "cat "+filepath.Join(outside, "secret.txt"))}})
		h.result(run)
		testenv.WriteHistory(t, gatedHistory, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
	}
	r := sdkworker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(workflows.Turn, workflow.RegisterOptions{Name: workflows.TurnWorkflowName})
	if err := r.ReplayWorkflowHistoryFromJSONFile(nil, gatedHistory); err != nil {
		t.Fatalf("replay of %s: %v", gatedHistory, err)
	}
}
