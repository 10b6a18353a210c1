package tool

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// TaskList is a session's task list: what Claude Code's TaskCreate, TaskGet,
// TaskUpdate and TaskList tools keep (2.1.328), here as workflow state of the
// session, so that it outlives workers, continue-as-new and compaction. Its
// methods are pure: the session applies a call to it in workflow code
// (workflows/session_tasklist.go), and a replay applies it again to the same
// effect. Ids are "1", "2", … in creation order and never reused.
type TaskList struct {
	Tasks []TaskItem `json:"tasks,omitempty"`
	// Last is the last id given.
	Last int `json:"last,omitempty"`
}

// TaskItem is one task of a TaskList.
type TaskItem struct {
	ID          string `json:"id"`
	Subject     string `json:"subject"`
	Description string `json:"description"`
	ActiveForm  string `json:"activeForm,omitempty"`
	// Status is TaskPending, TaskInProgress or TaskDone (a deleted task is gone).
	Status string `json:"status"`
	Owner  string `json:"owner,omitempty"`
	// Blocks are the tasks waiting for this one; BlockedBy those it waits for.
	// Each link is kept on both of its tasks.
	Blocks    []string       `json:"blocks,omitempty"`
	BlockedBy []string       `json:"blockedBy,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
}

// The statuses of a task, as Claude Code spells them.
const (
	TaskPending    = "pending"
	TaskInProgress = "in_progress"
	TaskDone       = "completed"
	// taskDeleted is the status TaskUpdate deletes a task with.
	taskDeleted = "deleted"
)

// The task-list tools' names.
const (
	TaskCreateName = "TaskCreate"
	TaskGetName    = "TaskGet"
	TaskUpdateName = "TaskUpdate"
	TaskListName   = "TaskList"
)

// IsTaskListTool reports whether name is one of the task-list tools.
func IsTaskListTool(name string) bool {
	return name == TaskCreateName || name == TaskGetName || name == TaskUpdateName || name == TaskListName
}

// taskNotFound is Claude Code's answer for an id the list does not have (not
// an error result).
const taskNotFound = "Task not found"

// Clone is a deep copy, for a carry that must not share slices with the state.
func (l *TaskList) Clone() *TaskList {
	if l == nil {
		return nil
	}
	var out TaskList
	b, _ := json.Marshal(l)
	_ = json.Unmarshal(b, &out)
	return &out
}

func (l *TaskList) find(id string) *TaskItem {
	for i := range l.Tasks {
		if l.Tasks[i].ID == id {
			return &l.Tasks[i]
		}
	}
	return nil
}

// Apply runs one call of a task-list tool on the list: the result text Claude
// Code gives, whether it is an error, and the tool_response hooks read (its
// sdk-tools.d.ts output type). The input was validated against the schema.
func (l *TaskList) Apply(name string, input json.RawMessage) (string, bool, json.RawMessage) {
	switch name {
	case TaskCreateName:
		return l.create(input)
	case TaskGetName:
		return l.get(input)
	case TaskUpdateName:
		return l.update(input)
	case TaskListName:
		return l.list()
	}
	return "Error: No such tool available: " + name, true, nil
}

func marshal(v any) json.RawMessage { b, _ := json.Marshal(v); return b }

func (l *TaskList) create(input json.RawMessage) (string, bool, json.RawMessage) {
	var in struct {
		Subject     string         `json:"subject"`
		Description string         `json:"description"`
		ActiveForm  string         `json:"activeForm"`
		Metadata    map[string]any `json:"metadata"`
	}
	_ = json.Unmarshal(input, &in)
	l.Last++
	t := TaskItem{ID: strconv.Itoa(l.Last), Subject: in.Subject, Description: in.Description, ActiveForm: in.ActiveForm,
		Status: TaskPending, Metadata: in.Metadata}
	l.Tasks = append(l.Tasks, t)
	resp := map[string]any{"task": map[string]any{"id": t.ID, "subject": t.Subject, "description": t.Description}}
	return "Task #" + t.ID + " created successfully: " + t.Subject, false, marshal(resp)
}

func taskID(input json.RawMessage) string {
	var in struct {
		TaskID string `json:"taskId"`
	}
	_ = json.Unmarshal(input, &in)
	return in.TaskID
}

// existing are the ids of ids the list still has, as "#1, #2".
func (l *TaskList) existing(ids []string, open bool) string {
	var out []string
	for _, id := range ids {
		if t := l.find(id); t != nil && (!open || t.Status != TaskDone) {
			out = append(out, "#"+id)
		}
	}
	return strings.Join(out, ", ")
}

func (l *TaskList) get(input json.RawMessage) (string, bool, json.RawMessage) {
	t := l.find(taskID(input))
	if t == nil {
		return taskNotFound, false, marshal(map[string]any{"task": nil})
	}
	text := "Task #" + t.ID + ": " + t.Subject + "\nStatus: " + t.Status + "\nDescription: " + t.Description
	if s := l.existing(t.BlockedBy, false); s != "" {
		text += "\nBlocked by: " + s
	}
	if s := l.existing(t.Blocks, false); s != "" {
		text += "\nBlocks: " + s
	}
	resp := map[string]any{"task": map[string]any{"id": t.ID, "subject": t.Subject, "description": t.Description,
		"status": t.Status, "blocks": nonNil(t.Blocks), "blockedBy": nonNil(t.BlockedBy)}}
	return text, false, marshal(resp)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (l *TaskList) list() (string, bool, json.RawMessage) {
	if len(l.Tasks) == 0 {
		return "No tasks found", false, marshal(map[string]any{"tasks": []any{}})
	}
	lines := make([]string, 0, len(l.Tasks))
	tasks := make([]map[string]any, 0, len(l.Tasks))
	for _, t := range l.Tasks {
		line := "#" + t.ID + " [" + t.Status + "] " + t.Subject
		if t.Owner != "" {
			line += " (" + t.Owner + ")"
		}
		if s := l.existing(t.BlockedBy, true); s != "" {
			line += " [blocked by " + s + "]"
		}
		lines = append(lines, line)
		item := map[string]any{"id": t.ID, "subject": t.Subject, "status": t.Status, "blockedBy": nonNil(t.BlockedBy)}
		if t.Owner != "" {
			item["owner"] = t.Owner
		}
		tasks = append(tasks, item)
	}
	return strings.Join(lines, "\n"), false, marshal(map[string]any{"tasks": tasks})
}

// taskUpdateInput is TaskUpdateInput (sdk-tools.d.ts); pointers tell a field
// given from one left out.
type taskUpdateInput struct {
	TaskID       string          `json:"taskId"`
	Subject      *string         `json:"subject"`
	Description  *string         `json:"description"`
	ActiveForm   *string         `json:"activeForm"`
	Status       *string         `json:"status"`
	AddBlocks    []string        `json:"addBlocks"`
	AddBlockedBy []string        `json:"addBlockedBy"`
	Owner        *string         `json:"owner"`
	Metadata     json.RawMessage `json:"metadata"`
}

// update changes what the input gives and differs, and names the fields it
// changed in Claude Code's order; a status of "deleted" removes the task and
// its links.
func (l *TaskList) update(input json.RawMessage) (string, bool, json.RawMessage) {
	var in taskUpdateInput
	_ = json.Unmarshal(input, &in)
	t := l.find(in.TaskID)
	if t == nil {
		return taskNotFound, false, marshal(map[string]any{"success": false, "taskId": in.TaskID, "updatedFields": []string{}, "error": taskNotFound})
	}
	if in.Status != nil && *in.Status == taskDeleted {
		l.delete(t.ID)
		return "Updated task #" + in.TaskID + " deleted", false,
			marshal(map[string]any{"success": true, "taskId": in.TaskID, "updatedFields": []string{"deleted"}})
	}
	var fields []string
	set := func(name string, dst *string, v *string) {
		if v != nil && *v != *dst {
			*dst = *v
			fields = append(fields, name)
		}
	}
	set("subject", &t.Subject, in.Subject)
	set("description", &t.Description, in.Description)
	set("activeForm", &t.ActiveForm, in.ActiveForm)
	set("owner", &t.Owner, in.Owner)
	if mergeMetadata(t, in.Metadata) {
		fields = append(fields, "metadata")
	}
	var change map[string]string
	if in.Status != nil && *in.Status != t.Status {
		change = map[string]string{"from": t.Status, "to": *in.Status}
		t.Status = *in.Status
		fields = append(fields, "status")
	}
	id := t.ID
	if l.link(id, in.AddBlocks, false) {
		fields = append(fields, "blocks")
	}
	if l.link(id, in.AddBlockedBy, true) {
		fields = append(fields, "blockedBy")
	}
	resp := map[string]any{"success": true, "taskId": id, "updatedFields": nonNil(fields)}
	if change != nil {
		resp["statusChange"] = change
	}
	return "Updated task #" + id + " " + strings.Join(fields, ", "), false, marshal(resp)
}

// mergeMetadata merges the given keys into the task's metadata (null deletes a
// key) and reports whether any were given. Keys are taken in sorted order, never
// in a map's.
func mergeMetadata(t *TaskItem, raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m == nil {
		return false
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if string(m[k]) == "null" {
			delete(t.Metadata, k)
			continue
		}
		var v any
		_ = json.Unmarshal(m[k], &v)
		if t.Metadata == nil {
			t.Metadata = map[string]any{}
		}
		t.Metadata[k] = v
	}
	return true
}

// link adds links from task id to each of others (it blocks them, or with
// blockedBy they block it), on both ends where the other task exists, and
// reports whether it was given any id it did not have.
func (l *TaskList) link(id string, others []string, blockedBy bool) bool {
	changed := false
	for _, o := range others {
		t := l.find(id)
		mine, theirs := &t.Blocks, (*[]string)(nil)
		if blockedBy {
			mine = &t.BlockedBy
		}
		if slices.Contains(*mine, o) || o == id {
			continue
		}
		*mine = append(*mine, o)
		changed = true
		if ot := l.find(o); ot != nil {
			theirs = &ot.BlockedBy
			if blockedBy {
				theirs = &ot.Blocks
			}
			if !slices.Contains(*theirs, id) {
				*theirs = append(*theirs, id)
			}
		}
	}
	return changed
}

func (l *TaskList) delete(id string) {
	l.Tasks = slices.DeleteFunc(l.Tasks, func(t TaskItem) bool { return t.ID == id })
	for i := range l.Tasks {
		t := &l.Tasks[i]
		t.Blocks = slices.DeleteFunc(t.Blocks, func(s string) bool { return s == id })
		t.BlockedBy = slices.DeleteFunc(t.BlockedBy, func(s string) bool { return s == id })
	}
}
