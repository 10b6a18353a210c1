package workflows_test

import (
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// The UI's details of a session show plan mode and its task list.
func TestDetailsShowTaskListAndPlanMode(t *testing.T) {
	d := workflows.RenderSessionDetails(workflows.SessionDetails{State: workflows.SessionState{PlanMode: true, Tasks: []tool.TaskItem{
		{ID: "1", Subject: "Write tests", Status: tool.TaskDone},
		{ID: "2", Subject: "Ship", Status: tool.TaskPending, Owner: "me", BlockedBy: []string{"1"}},
	}}})
	for _, want := range []string{
		"| mode | plan: calls that could change something are refused until a plan is approved |",
		"| task #1 | completed · Write tests |",
		"| task #2 | pending · Ship · owner me · blocked by #1 |",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("details lack %q:\n%s", want, d)
		}
	}
}
