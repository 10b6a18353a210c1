package main

import (
	"bytes"
	"testing"

	"github.com/toolpipe/toolpipe/workflows"
)

// Quiet ScheduleWakeup rounds are shown collapsed: the first shows, the next two
// are dropped once they end quiet and counted on one line when a round that did
// something ends the streak; that round shows whole, its Bash call at once.
func TestQuietWakeupRoundsAreCollapsed(t *testing.T) {
	round := func(prompt string, noop bool, calls ...string) []workflows.SessionEvent {
		evs := []workflows.SessionEvent{{Kind: workflows.EventUser, Text: prompt}}
		for _, c := range calls {
			evs = append(evs, workflows.SessionEvent{Kind: workflows.EventToolUse, Text: c, ToolUseID: "t-" + c},
				workflows.SessionEvent{Kind: workflows.EventToolResult, Text: "ok", ToolUseID: "t-" + c})
		}
		return append(evs, workflows.SessionEvent{Kind: workflows.EventWakeup, Text: "sleeping 60s: " + prompt, Noop: noop})
	}
	var evs []workflows.SessionEvent
	evs = append(evs, round("first", true, "ScheduleWakeup: in 60s: CI")...)
	evs = append(evs, round("second", true, "ScheduleWakeup: in 60s: CI")...)
	evs = append(evs, round("third", true, "ScheduleWakeup: in 60s: CI")...)
	evs = append(evs, round("fourth", false, "Bash: `make`", "ScheduleWakeup: in 60s: CI")...)
	evs = append(evs, workflows.SessionEvent{Kind: workflows.EventStop, Text: "end_turn"})
	var out bytes.Buffer
	var q quietRounds
	for _, ev := range evs {
		q.print(&out, ev)
	}
	want := `> first
  -> ScheduleWakeup: in 60s: CI [t-ScheduleWakeup: in 60s: CI]
  <- t-ScheduleWakeup: in 60s: CI ok
  zz sleeping 60s: first (quiet round: nothing changed)
  zz … 3 quiet rounds in a row (collapsed)
> fourth
  -> Bash: ` + "`make`" + ` [t-Bash: ` + "`make`" + `]
  <- t-Bash: ` + "`make`" + ` ok
  -> ScheduleWakeup: in 60s: CI [t-ScheduleWakeup: in 60s: CI]
  <- t-ScheduleWakeup: in 60s: CI ok
  zz sleeping 60s: fourth
(session ended: end_turn)
`
	if out.String() != want {
		t.Fatalf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
