package main

import (
	"strings"
	"testing"

	toolpipe "github.com/toolpipe/toolpipe"
)

// agent status shows plan mode and each task of the session's list.
func TestStatusShowsTaskListAndPlanMode(t *testing.T) {
	var b strings.Builder
	writeSessionTools(&b, toolpipe.SessionState{PlanMode: true, Tasks: []toolpipe.Task{
		{ID: "1", Subject: "Write tests", Status: "in_progress"},
		{ID: "2", Subject: "Ship", Status: "pending", Owner: "me", BlockedBy: []string{"1"}},
	}})
	want := "mode\tplan (calls that could change something are refused until a plan is approved: starter approve)\n" +
		"task\t#1 [in_progress] Write tests\n" +
		"task\t#2 [pending] Ship (me) [blocked by #1]\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}
