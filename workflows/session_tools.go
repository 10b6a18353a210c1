package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/tool"
)

// sessionTools are the tools that need their session's durable state (a timer, a
// person's answer), not a worker: the turn hands their calls to the session, as it
// does background shells (turn_background.go), and the session answers each in a
// coroutine of its own, so a call that waits (a question) holds up no other.
var sessionTools = map[string]func(s *session, ctx workflow.Context, ask BackgroundAsk) BackgroundReply{
	tool.ScheduleWakeupName:  (*session).scheduleWakeup, // session_schedulewakeup.go
	tool.AskUserQuestionName: (*session).askUser,        // session_askuserquestion.go
}

// isSessionTool says the session answers calls of the named tool.
func isSessionTool(name string) bool {
	_, ok := sessionTools[name]
	return ok
}

// serveSessionTool answers one call of a session tool and signals the reply to
// the asking turn.
func (s *session) serveSessionTool(ctx workflow.Context, ask BackgroundAsk) {
	workflow.Go(ctx, func(ctx workflow.Context) {
		reply := sessionTools[ask.Call.Name](s, ctx, ask)
		// The turn waits for this; a turn that is gone needs no answer.
		_ = workflow.SignalExternalWorkflow(ctx, ask.TurnID, "", backgroundReplySignal(ask.ToolUseID), reply).Get(ctx, nil)
	})
}

// noSessionTool is the result of a session tool's call in a turn without a
// session (`starter run`).
func noSessionTool(name string) string {
	return "Error: " + name + " needs an agent session (starter agent, or the Go API's Session): a turn run on its own has no session to keep it."
}
