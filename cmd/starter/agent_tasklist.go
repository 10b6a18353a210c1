package main

import (
	"fmt"
	"io"
	"strings"

	toolpipe "github.com/toolpipe/toolpipe"
)

// writeSessionTools writes the lines of `agent status` for the state the session's
// own tools keep: plan mode, and the task list (TaskCreate, TaskUpdate), one task
// a line as TaskList shows it to the model.
func writeSessionTools(w io.Writer, st toolpipe.SessionState) {
	if st.PlanMode {
		fmt.Fprintf(w, "mode\tplan (calls that could change something are refused until a plan is approved: starter approve)\n")
	}
	for _, t := range st.Tasks {
		line := fmt.Sprintf("#%s [%s] %s", t.ID, t.Status, t.Subject)
		if t.Owner != "" {
			line += " (" + t.Owner + ")"
		}
		if len(t.BlockedBy) > 0 {
			line += " [blocked by #" + strings.Join(t.BlockedBy, ", #") + "]"
		}
		fmt.Fprintf(w, "task\t%s\n", line)
	}
}
