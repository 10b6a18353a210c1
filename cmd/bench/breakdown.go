package main

import (
	"fmt"
	"os"
	"syscall"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/toolpipe/toolpipe/workflows"
)

// phase is one part of a sequential step, measured between two history events.
type phase struct {
	name string
	ds   []time.Duration
}

// stepPhases splits each step from one tool's completion to the next tool's
// completion (a non-safe tool after another) into its parts, from the server's
// own event timestamps: the server writes each event's time when it records it,
// so the parts add up to the step and need no clock on the path.
//
//	ActivityTaskCompleted(i) ── WorkflowTaskScheduled  (same commit)
//	   └ wft schedule-to-start: transfer task → matching → the worker's poll
//	WorkflowTaskStarted
//	   └ wft processing: the worker runs the workflow and responds
//	WorkflowTaskCompleted ── ActivityTaskScheduled(i+1)  (same commit)
//	   └ activity schedule-to-start: eager dispatch or matching
//	ActivityTaskStarted(i+1)
//	   └ activity run: the tool plus the completion RPC and its commit
//	ActivityTaskCompleted(i+1)
func stepPhases(events []*historypb.HistoryEvent) (wftSched, wftProc, actSched, actRun []time.Duration) {
	at := func(e *historypb.HistoryEvent) time.Time { return e.GetEventTime().AsTime() }
	var lastActDone, wftScheduled, wftStarted, actScheduled time.Time
	started := map[int64]time.Time{} // scheduled event id → started time
	for _, e := range events {
		switch e.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
			wftScheduled = at(e)
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED:
			wftStarted = at(e)
			if !lastActDone.IsZero() && !wftScheduled.IsZero() {
				wftSched = append(wftSched, wftStarted.Sub(wftScheduled))
			}
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			if !lastActDone.IsZero() && !wftStarted.IsZero() {
				wftProc = append(wftProc, at(e).Sub(wftStarted))
			}
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			actScheduled = at(e)
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED:
			started[e.GetActivityTaskStartedEventAttributes().GetScheduledEventId()] = at(e)
			if !lastActDone.IsZero() {
				actSched = append(actSched, at(e).Sub(actScheduled))
			}
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			a := e.GetActivityTaskCompletedEventAttributes()
			if s, ok := started[a.GetScheduledEventId()]; ok && !lastActDone.IsZero() {
				actRun = append(actRun, at(e).Sub(s))
			}
			lastActDone = at(e)
		}
	}
	return
}

// breakdown runs the sequential turn and reports where its per-step time goes.
func (b *bench) breakdown() error {
	shape := b.shapes()[1] // 10 non-safe edits in a row
	var ws, wp, as, ar []time.Duration
	var wActRPC, wWait, wRun, wWftRPC, wToTool []time.Duration
	idlePerSec := idleBurn()
	cpu0, wall0 := cpuTime(), time.Now()
	for n := range b.runs {
		id := fmt.Sprintf("breakdown-%d", n)
		blocks := shape.blocks(1000 + n)
		b.trace.record(true)
		b.timers.record(true)
		_, _, err := b.durable(id, workflows.TurnInput{Blocks: blocks, CloseIntake: true})
		calls := b.trace.snapshot()
		b.trace.record(false)
		b.timers.pause()
		if err != nil {
			return err
		}
		var starts []time.Time
		for _, bl := range blocks {
			starts = append(starts, <-b.rec.expect(bl.ID))
		}
		r1, r2, r3, r4, r5 := workerPhases(calls, starts)
		wActRPC, wWait, wRun, wWftRPC, wToTool = append(wActRPC, r1...), append(wWait, r2...), append(wRun, r3...), append(wWftRPC, r4...), append(wToTool, r5...)
		events, err := b.history(id)
		if err != nil {
			return err
		}
		a, c, d, e := stepPhases(events)
		ws, wp, as, ar = append(ws, a...), append(wp, c...), append(as, d...), append(ar, e...)
	}
	cpu, wall := cpuTime()-cpu0, time.Since(wall0)
	cpu -= time.Duration(wall.Seconds() * float64(idlePerSec))
	b.add(row{"0. breakdown", "sequential turn: CPU time of the whole process (server + worker + client) per tool call",
		fmt.Sprintf("%s (idle background %s/s subtracted; wall %s per call)", ms(cpu/time.Duration(b.runs*10)), ms(idlePerSec), ms(wall/time.Duration(b.runs*10))), "(no target)"})
	if b.verbose {
		for _, l := range b.timers.report("persistence_latency", "task_latency", "service_latency", "syncmatch_latency", "poll_latency") {
			fmt.Fprintln(os.Stderr, "  server:", l)
		}
	}
	for _, p := range []phase{
		{"workflow task schedule-to-start (transfer task → matching → poll)", ws},
		{"workflow task processing (worker + RespondWorkflowTaskCompleted)", wp},
		{"activity schedule-to-start (eager or via matching)", as},
		{"activity run + RespondActivityTaskCompleted", ar},
		{"worker: RespondActivityTaskCompleted round trip", wActRPC},
		{"worker: activity completed → workflow task poll returns", wWait},
		{"worker: workflow task poll returned → RespondWorkflowTaskCompleted sent", wRun},
		{"worker: RespondWorkflowTaskCompleted round trip", wWftRPC},
		{"worker: RespondWorkflowTaskCompleted returned → tool function starts", wToTool},
		{"server: commit → transfer task loaded (task_latency_load, workflow tasks)", b.timers.get("task_latency_load", "operation=TransferActiveTaskWorkflowTask")},
		{"server: one commit (persistence_latency UpdateWorkflowExecution)", b.timers.get("persistence_latency", "operation=UpdateWorkflowExecution")},
		{"server: matching hand-over incl. RecordWorkflowTaskStarted (syncmatch_latency)", b.timers.get("syncmatch_latency", "operation=AddWorkflowTask")},
	} {
		if len(p.ds) == 0 {
			return fmt.Errorf("breakdown: no samples of %q", p.name)
		}
		b.add(row{"0. breakdown", "sequential step: " + p.name + " p50 / p99",
			fmt.Sprintf("%s / %s", ms(pct(p.ds, 50)), ms(pct(p.ds, 99))), "(no target)"})
	}
	return nil
}

func (b *bench) history(id string) ([]*historypb.HistoryEvent, error) {
	iter := b.c.GetWorkflowHistory(b.ctx, id, "", false, 0)
	var events []*historypb.HistoryEvent
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			return nil, err
		}
		events = append(events, ev)
	}
	return events, nil
}

// idleBurn is the CPU time per second the process burns with nothing to do (the
// server's background loops), to subtract from the per-call figures.
func idleBurn() time.Duration {
	idle0 := cpuTime()
	time.Sleep(2 * time.Second)
	return (cpuTime() - idle0) / 2
}

// cpuTime is the user and system CPU time this process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
