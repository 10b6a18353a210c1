package tool

import (
	"context"
	"encoding/json"
	"fmt"
)

// sessionTool is the part every tool the session answers shares: no activity
// runs it (Spec.InSession), it changes nothing but the session's own state, so it
// runs beside other safe calls, is never refused by plan mode and needs no
// approval (Access.Own), and an interrupt waits for its answer, which is
// immediate.
type sessionTool struct{ Base }

// IsConcurrencySafe: always; the session answers calls one at a time.
func (sessionTool) IsConcurrencySafe(json.RawMessage) bool { return true }

// Access: the session's own state.
func (sessionTool) Access(json.RawMessage) Access {
	return Access{Kind: AccessOther, ReadOnly: true, Own: OwnAllow}
}

// Run is never called: the session answers.
func (sessionTool) Run(_ context.Context, c Call) (Output, error) {
	return Output{}, fmt.Errorf("%s is answered by the session, not by an activity", c.Name)
}

func sessionSpec(name, description, schema string) Spec {
	return Spec{Name: name, Description: description, InputSchema: schema, Builtin: true, Coerce: true, InSession: true,
		MaxInputBytes: 1 << 20, Interrupt: InterruptBlock}
}

// TaskCreate adds a task to the session's task list (TaskList).
type TaskCreate struct{ sessionTool }

// Spec of TaskCreate.
func (TaskCreate) Spec() Spec {
	return sessionSpec(TaskCreateName, `Adds a task to this session's task list and returns its id. Keep a list when the work has three or more distinct steps, or when the user gives several things to do: it shows the user your progress and keeps you on track.

- subject is a short imperative title ("Fix the login test"); description says what done means.
- activeForm is the title in the present continuous ("Fixing the login test"), shown while the task is in progress.
- A new task is pending. Mark it in_progress with TaskUpdate when you start it and completed when it is done; link tasks that wait on others with addBlockedBy.
- The list is the session's: it lasts across turns, restarts and compactions.`, `{
  "type": "object",
  "properties": {
    "subject": {"type": "string", "description": "A brief title for the task"},
    "description": {"type": "string", "description": "What needs to be done"},
    "activeForm": {"type": "string", "description": "Present continuous form shown in spinner when in_progress (e.g., \"Running tests\")"},
    "metadata": {"type": "object", "additionalProperties": true, "description": "Arbitrary metadata to attach to the task"}
  },
  "required": ["subject"],
  "additionalProperties": false
}`)
}

// TaskCreate's published schema (sdk-tools.d.ts) requires description, but Claude
// Code 2.1.328 creates a task without one (issue 41 item 3), so a model that leaves
// it out is not refused here either.

// Summary: the subject.
func (TaskCreate) Summary(input json.RawMessage) string {
	var in struct {
		Subject string `json:"subject"`
	}
	_ = json.Unmarshal(input, &in)
	return Title(TaskCreateName, Code(in.Subject, false))
}

// Subject: the subject.
func (TaskCreate) Subject(input json.RawMessage) string {
	var in struct {
		Subject string `json:"subject"`
	}
	_ = json.Unmarshal(input, &in)
	return in.Subject
}

// TaskGet shows one task of the list.
type TaskGet struct{ sessionTool }

// Spec of TaskGet.
func (TaskGet) Spec() Spec {
	return sessionSpec(TaskGetName, `Shows one task of this session's task list by its id: its subject, status, description and the tasks it waits on or blocks. Read a task before you start it, to see its whole description and whether what it waits on is done.`, `{
  "type": "object",
  "properties": {
    "taskId": {"type": "string", "description": "The ID of the task to retrieve"}
  },
  "required": ["taskId"],
  "additionalProperties": false
}`)
}

// Summary: the task.
func (TaskGet) Summary(input json.RawMessage) string { return Title(TaskGetName, "#"+taskID(input)) }

// Subject: the task.
func (TaskGet) Subject(input json.RawMessage) string { return "#" + taskID(input) }

// TaskUpdate changes a task of the list.
type TaskUpdate struct{ sessionTool }

// Spec of TaskUpdate.
func (TaskUpdate) Spec() Spec {
	return sessionSpec(TaskUpdateName, `Changes a task of this session's task list: its status, subject, description, activeForm, owner, metadata, or the tasks it waits on or blocks.

- Set status to in_progress when you start a task and to completed as soon as it is done, not in batches; "deleted" removes it.
- Mark a task completed only when it is wholly done: not while tests fail or the work is partial.
- addBlockedBy lists tasks that must be done first; addBlocks the tasks that wait on this one. The link is kept on both tasks.
- metadata keys are merged into the task's; a key set to null is removed.
- The result names the fields that changed.`, `{
  "type": "object",
  "properties": {
    "taskId": {"type": "string", "description": "The ID of the task to update"},
    "subject": {"type": "string", "description": "New subject for the task"},
    "description": {"type": "string", "description": "New description for the task"},
    "activeForm": {"type": "string", "description": "Present continuous form shown in spinner when in_progress (e.g., \"Running tests\")"},
    "status": {"type": "string", "enum": ["pending", "in_progress", "completed", "deleted"], "description": "New status for the task"},
    "addBlocks": {"type": "array", "items": {"type": "string"}, "description": "Task IDs that this task blocks"},
    "addBlockedBy": {"type": "array", "items": {"type": "string"}, "description": "Task IDs that block this task"},
    "owner": {"type": "string", "description": "New owner for the task"},
    "metadata": {"type": "object", "additionalProperties": true, "description": "Metadata keys to merge into the task. Set a key to null to delete it."}
  },
  "required": ["taskId"],
  "additionalProperties": false
}`)
}

// Summary: the task and its new status.
func (TaskUpdate) Summary(input json.RawMessage) string {
	var in taskUpdateInput
	_ = json.Unmarshal(input, &in)
	parts := []string{"#" + in.TaskID}
	if in.Status != nil {
		parts = append(parts, "→", Code(*in.Status, false))
	}
	return Title(TaskUpdateName, parts...)
}

// Subject: the task.
func (TaskUpdate) Subject(input json.RawMessage) string { return "#" + taskID(input) }

// TaskList lists the tasks.
type TaskListTool struct{ sessionTool }

// Spec of TaskList.
func (TaskListTool) Spec() Spec {
	return sessionSpec(TaskListName, `Lists this session's tasks, one a line: id, status, subject, owner, and the open tasks each waits on. Use it to pick the next task (the lowest-numbered pending one that waits on nothing), and after finishing one to see what is left.`, `{
  "type": "object",
  "properties": {},
  "additionalProperties": false
}`)
}

// Subject: none.
func (TaskListTool) Subject(json.RawMessage) string { return "" }
