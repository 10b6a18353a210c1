package main

import (
	"fmt"
	"io"

	"github.com/toolpipe/toolpipe"
)

// shownCheckpoints is how many of a session's newest checkpoints `agent status`
// lists.
const shownCheckpoints = 10

// checkpointLines lists which turn produced which checkpoint, newest last, one
// line each (the full id: what a restore or rewind takes).
func checkpointLines(w io.Writer, cps []toolpipe.TurnCheckpoint) {
	if len(cps) == 0 {
		return
	}
	fmt.Fprintf(w, "checkpoints\t%d\n", len(cps))
	for _, c := range cps[max(0, len(cps)-shownCheckpoints):] {
		what := fmt.Sprintf("after turn %d", c.Turn)
		if c.Message == 0 {
			what = fmt.Sprintf("at start (after turn %d)", c.Turn)
		}
		fmt.Fprintf(w, "checkpoint\t%s %s (%d files, %d changed)\n", what, c.Checkpoint, c.Files, c.Changed)
	}
}

// shortCheckpoint is a checkpoint id as people read it: its first 12 digits.
func shortCheckpoint(id string) string { return id[:min(12, len(id))] }
