package main

import (
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// agent status shows plan mode and each task of the session's list.
func TestStatusShowsTaskListAndPlanMode(t *testing.T) {
	var b strings.Builder
	writeSessionTools(&b, workflows.SessionState{PlanMode: true, Tasks: []tool.TaskItem{
		{ID: "1", Subject: "Write tests", Status: tool.TaskInProgress},
		{ID: "2", Subject: "Ship", Status: tool.TaskPending, Owner: "me", BlockedBy: []string{"1"}},
	}})
	want := "mode\tplan (calls that could change something are refused until a plan is approved: starter approve)\n" +
		"task\t#1 [in_progress] Write tests\n" +
		"task\t#2 [pending] Ship (me) [blocked by #1]\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}
