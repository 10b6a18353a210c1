package workflows

import (
	"fmt"
	"testing"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/permissions"
)

// TestGateSteps: a turn without settings, or with nothing that gates a call, has
// no gate; one with a policy or tool hooks has its steps in the order histories
// replay: hooks, permission, approval, transcript.
func TestGateSteps(t *testing.T) {
	tr := &turn{}
	for _, s := range []*TurnSettings{nil, {}, {TranscriptPath: "/t.jsonl"}} {
		if steps := gateSteps(tr, s); len(steps) != 0 {
			t.Errorf("%+v: steps %v", s, steps)
		}
	}
	want := "[workflows.hookStep workflows.permissionStep workflows.approvalStep workflows.transcriptStep]"
	for _, s := range []*TurnSettings{
		{Permissions: &permissions.Policy{}},
		{Hooks: hooks.Config{PreToolUse: []hooks.Group{{Hooks: []hooks.Command{{Command: "true"}}}}}},
	} {
		steps := gateSteps(tr, s)
		var names []string
		for _, st := range steps {
			names = append(names, fmt.Sprintf("%T", st))
		}
		if got := fmt.Sprint(names); got != want {
			t.Errorf("%+v: steps %s, want %s", s, got, want)
		}
	}
}
