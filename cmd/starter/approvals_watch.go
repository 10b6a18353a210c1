package main

import (
	"fmt"
	"io"
	"time"

	"github.com/toolpipe/toolpipe"
)

// A call that waits for approval is shown once, when the progress display's read
// of the turn's state first lists it (progress_watch.go): the call, why it asks,
// until when it waits and the commands that answer it. The wait itself is in the
// workflow: this is only the prompt.

// printPending shows one call waiting for approval and the commands that answer it.
func printPending(w io.Writer, turn string, p toolpipe.PendingApproval) {
	fmt.Fprintf(w, "  %s waiting for approval: %s\n    why: %s\n    until: %s (then denied)\n    answer: starter approve %s %s  |  starter deny %s %s --reason TEXT\n",
		p.ToolUseID, p.Description, p.Reason, p.Deadline.Local().Format(time.RFC3339), turn, p.ToolUseID, turn, p.ToolUseID)
}
