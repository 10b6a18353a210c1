package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// A sequential step's parts come from the right pairs of events, and the first
// tool (which no completion precedes) is not counted as a step.
func TestStepPhasesSplitsEachStepAtItsEvents(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var evs []*historypb.HistoryEvent
	id := int64(0)
	add := func(ty enumspb.EventType, ms int, attrs func(*historypb.HistoryEvent)) {
		id++
		e := &historypb.HistoryEvent{EventId: id, EventType: ty, EventTime: timestamppb.New(t0.Add(time.Duration(ms) * time.Millisecond))}
		if attrs != nil {
			attrs(e)
		}
		evs = append(evs, e)
	}
	activity := func(sched, start, done int) {
		add(enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, sched, nil)
		s := id
		add(enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED, start, func(e *historypb.HistoryEvent) {
			e.Attributes = &historypb.HistoryEvent_ActivityTaskStartedEventAttributes{ActivityTaskStartedEventAttributes: &historypb.ActivityTaskStartedEventAttributes{ScheduledEventId: s}}
		})
		add(enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, done, func(e *historypb.HistoryEvent) {
			e.Attributes = &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{ScheduledEventId: s}}
		})
	}
	wft := func(sched, start, done int) {
		add(enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, sched, nil)
		add(enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, start, nil)
		add(enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, done, nil)
	}
	wft(0, 1, 3)
	activity(3, 3, 10)   // first tool: not a step
	wft(10, 60, 62)      // 50 ms to start the task, 2 ms to run it
	activity(62, 63, 70) // 1 ms to start the tool, 7 ms to run and report it
	ws, wp, as, ar := stepPhases(evs)
	want := func(name string, got []time.Duration, ms ...int) {
		t.Helper()
		if len(got) != len(ms) {
			t.Fatalf("%s: %v, want %v ms", name, got, ms)
		}
		for i := range ms {
			if got[i] != time.Duration(ms[i])*time.Millisecond {
				t.Fatalf("%s: %v, want %v ms", name, got, ms)
			}
		}
	}
	want("workflow task schedule-to-start", ws, 50)
	want("workflow task processing", wp, 2)
	want("activity schedule-to-start", as, 1)
	want("activity run", ar, 7)
}

// The worker's side of a step: the wait for the workflow task after a completion,
// the worker's own time, the round trip, and the hand-over to the tool.
func TestWorkerPhasesFollowsTheCallsInOrder(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	calls := []rpcCall{
		{"RespondWorkflowTaskCompleted", at(20), at(22)}, // the turn's first task, before any tool
		{"PollActivityTaskQueue", at(0), at(100)},        // ignored
		{"RespondActivityTaskCompleted", at(30), at(34)},
		{"PollWorkflowTaskQueue", at(22), at(40)},
		{"RespondWorkflowTaskCompleted", at(41), at(45)},
	}
	starts := []time.Time{at(23), at(46)}
	actRPC, wait, run, wftRPC, toTool := workerPhases(calls, starts)
	for _, c := range []struct {
		name string
		got  []time.Duration
		want time.Duration
	}{
		{"activity completion round trip", actRPC, 4 * time.Millisecond},
		{"wait for the workflow task", wait, 6 * time.Millisecond},
		{"worker runs the task", run, time.Millisecond},
		{"task completion round trip", wftRPC, 4 * time.Millisecond},
		{"hand-over to the tool", toTool, time.Millisecond},
	} {
		if len(c.got) != 1 || c.got[0] != c.want {
			t.Errorf("%s: %v, want [%v]", c.name, c.got, c.want)
		}
	}
}

// A new run rewrites the generated part of BENCHMARKS.md and keeps what follows
// the marker.
func TestReportKeepsTheHandWrittenPart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "BENCHMARKS.md")
	kept := keptMarker + "\n\n## Analysis\n\nby hand\n"
	if err := os.WriteFile(path, []byte("# old generated part\n\n"+kept), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeReport(path, []row{{"g", "w", "v", "t"}}, time.Second, "full"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if strings.Contains(string(got), "old generated part") || !strings.HasSuffix(string(got), kept) || !strings.Contains(string(got), "| g | w | v | t |") {
		t.Fatalf("report:\n%s", got)
	}
}
