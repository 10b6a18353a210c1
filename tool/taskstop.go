package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// TaskStopName is Claude Code's tool that stops a background task (a Bash command
// started with run_in_background).
const TaskStopName = "TaskStop"

// TaskStopInput is the input of TaskStop (Claude Code's TaskStopInput).
type TaskStopInput struct {
	TaskID string `json:"task_id,omitempty"`
	// ShellID is the deprecated name of TaskID, still accepted.
	ShellID string `json:"shell_id,omitempty"`
}

// ID is the task to stop: task_id, or the deprecated shell_id.
func (in TaskStopInput) ID() string {
	if in.TaskID != "" {
		return in.TaskID
	}
	return in.ShellID
}

// TaskStop stops a background task. It lives here, with the turn's other pure
// parts, because it has no activity: the turn hands its calls to its session,
// which owns the tasks (workflows/turn_background.go, session_background.go). It
// changes nothing but a task the model started, so it needs no permission and
// runs beside other safe calls, as in Claude Code.
type TaskStop struct{ Base }

// Spec of TaskStop.
func (TaskStop) Spec() Spec {
	return Spec{Name: TaskStopName, Builtin: true, Coerce: true, InSession: true, MaxInputBytes: 1 << 20,
		Description: "Stops a running background task (a Bash command started with run_in_background) by its ID, killing its processes.",
		InputSchema: `{
  "type": "object",
  "properties": {
    "task_id": {"type": "string", "description": "The ID of the background task to stop"},
    "shell_id": {"type": "string", "description": "Deprecated: use task_id instead"}
  },
  "additionalProperties": false
}`}
}

// IsConcurrencySafe: always.
func (TaskStop) IsConcurrencySafe(json.RawMessage) bool { return true }

// CheckInput needs a task id under one of its names.
func (TaskStop) CheckInput(in json.RawMessage) error {
	var t TaskStopInput
	if err := json.Unmarshal(in, &t); err != nil {
		return err
	}
	if t.ID() == "" {
		return errors.New("Missing required parameter: task_id")
	}
	return nil
}

// Access: no path, command or URL, and no read-only pass in plan mode, as before.
func (TaskStop) Access(json.RawMessage) Access { return Access{Kind: AccessOther} }

// Run is never called: the session stops the task.
func (TaskStop) Run(context.Context, Call) (Output, error) {
	return Output{}, fmt.Errorf("%s is answered by the session, not by an activity", TaskStopName)
}
