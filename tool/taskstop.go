package tool

import (
	"encoding/json"
	"errors"
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

const taskStopSchema = `{
  "type": "object",
  "properties": {
    "task_id": {"type": "string", "description": "The ID of the background task to stop"},
    "shell_id": {"type": "string", "description": "Deprecated: use task_id instead"}
  },
  "additionalProperties": false
}`

const taskStopDescription = "Stops a running background task (a Bash command started with run_in_background) by its ID, killing its processes."

// taskStopDefinition: TaskStop changes nothing but a task the model started, so it
// needs no permission and runs beside other safe calls, as in Claude Code. It has no
// activity: the Turn hands it to its session, which owns the tasks
// (workflows/turn_background.go).
var taskStopDefinition = &Definition{
	Name: TaskStopName, MaxResultSizeChars: 100_000, Interrupt: InterruptBlock,
	ReadOnly: always, Check: checkTaskStop, schema: mustCompile(TaskStopName, taskStopSchema),
	MaxInputBytes: maxShortInputBytes,
}

func checkTaskStop(in json.RawMessage) error {
	var t TaskStopInput
	if err := json.Unmarshal(in, &t); err != nil {
		return err
	}
	if t.ID() == "" {
		return errors.New("Missing required parameter: task_id")
	}
	return nil
}
