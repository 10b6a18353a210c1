package workflows_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// gatedHistories are Turns with a permission policy, oldest first: a read-only
// Bash command inside the working directory, one outside that asks and times out,
// and one through a symbolic link out of it. The first was recorded when
// read-only Bash paths were confined (GetVersion "bash-read-paths"), the second
// when their symbolic links were resolved ("bash-read-symlinks"), the third when
// they came from readonly.Reads and patterns' matches were resolved too
// ("bash-read-targets": ls, a pattern matching a link out, ".." after a link).
// The last is recorded again with TOOLPIPE_RECORD_GATED_HISTORY=1.
var gatedHistories = []string{
	"testdata/turn_history_bash_read_paths.json",
	"testdata/turn_history_bash_read_symlinks.json",
	"testdata/turn_history_bash_read_targets.json",
}

func TestTurnReplayBashReadPaths(t *testing.T) {
	if os.Getenv("TOOLPIPE_RECORD_GATED_HISTORY") == "1" {
		work, outside := dirs(t)
		os.Symlink(outside, filepath.Join(work, "link"))
		h := realHarness(t)
		run := h.start(workflows.TurnInput{Workdir: work, CloseIntake: true,
			Settings: policy(t, work, permissions.Default, nil, nil, nil),
			Blocks: []tool.Block{bashB("in", "cat notes.txt"), bashB("out", "cat "+filepath.Join(outside, "secret.txt")),
				bashB("link", "cat link/secret.txt"), bashB("ls", "ls"), bashB("glob", "cat lin*/secret.txt"),
				bashB("dotdot", "cat ./link/../work/notes.txt")}})
		h.result(run)
		testenv.WriteHistory(t, gatedHistories[len(gatedHistories)-1], testenv.History(t, h.c, run.GetID(), run.GetRunID()))
	}
	for _, h := range gatedHistories {
		replayHistory(t, h, "")
	}
}
