package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// quietRounds collapses a streak of quiet ScheduleWakeup rounds (noop: true) in
// starter agent's output, as Claude Code's terminal does: the first quiet round
// shows, the ones after it are held back while they run and dropped when they end
// as quiet too, and one line counts them once the streak ends. A round that does
// something (a tool other than ScheduleWakeup) shows at once, with what it held.
type quietRounds struct {
	// streak is the quiet rounds in a row so far; held what the round now
	// running has printed while a streak is on.
	streak int
	held   bytes.Buffer
}

// print shows ev on out as printEvent does, or holds it while a streak is on.
func (q *quietRounds) print(out io.Writer, ev workflows.SessionEvent) {
	switch {
	case ev.Kind == workflows.EventWakeup && ev.Noop:
		if q.streak == 0 {
			fmt.Fprintf(out, "  zz %s (quiet round: nothing changed)\n", ev.Text)
		}
		q.streak++
		q.held.Reset() // the round was quiet: nothing of it shows
		return
	case q.streak > 0 && ev.Kind != workflows.EventStop && ev.Kind != workflows.EventWakeup &&
		!(ev.Kind == workflows.EventToolUse && !strings.HasPrefix(ev.Text, tool.ScheduleWakeupName)):
		printEvent(&q.held, ev) // maybe a quiet round: known when it ends
		return
	}
	q.end(out)
	printEvent(out, ev)
}

// end closes a streak: how many quiet rounds were collapsed, then what the
// current round has printed.
func (q *quietRounds) end(out io.Writer) {
	if q.streak == 0 {
		return
	}
	if q.streak > 1 {
		fmt.Fprintf(out, "  zz … %d quiet rounds in a row (collapsed)\n", q.streak)
	}
	q.streak = 0
	_, _ = q.held.WriteTo(out)
}

// wakeupLine is a pending wake-up as agent status shows it.
func wakeupLine(w *toolpipe.Wakeup) string {
	s := fmt.Sprintf("%s UTC (%ds after it was armed): %q", w.At.UTC().Format("2006-01-02 15:04:05"), w.Seconds, w.Prompt)
	if w.Reason != "" {
		s += " — " + w.Reason
	}
	if w.NoopStreak > 0 {
		s += fmt.Sprintf(" (%d quiet rounds in a row)", w.NoopStreak)
	}
	return s
}
