package toolpipe_test

import (
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/internal/testenv"
)

// A session's queries and updates that fail say which session and what was asked:
// here against a session that never ran, so every call fails at the server.
func TestSessionCallErrorsNameTheSessionAndTheCall(t *testing.T) {
	ctx := testenv.Context(t)
	s := toolpipe.NewClient(testenv.Client(), testenv.TaskQueue(t)).Session("never-started-" + t.Name())
	prefix := "toolpipe: session " + s.ID + ": "
	_, stateErr := s.State(ctx)
	_, _, _, eventsErr := s.Events(ctx, 0)
	_, sendErr := s.Send(ctx, "hello")
	for what, err := range map[string]error{"state": stateErr, "events": eventsErr, "send": sendErr} {
		if err == nil || !strings.HasPrefix(err.Error(), prefix+what+": ") {
			t.Errorf("%s: error %v, want one starting %q", what, err, prefix+what+": ")
		}
	}
}
