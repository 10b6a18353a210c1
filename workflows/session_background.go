package workflows

import (
	"time"

	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/tool"
)

// backgroundTasks are a session's background shells (Bash with run_in_background).
// The session owns them, not the turn that started them: each is a BashBackground
// activity the session scheduled, which outlives its turn, is stopped by TaskStop
// or when the session ends, and whose end the model is told of in the next user
// message (a <task-notification>).
type backgroundTasks struct {
	byID  map[string]*backgroundTask
	order []string // ids in start order, for deterministic iteration
}

// backgroundTask is one background command and how it stands.
type backgroundTask struct {
	ID, ToolUseID, Command, Description, OutputFile string
	// Status is running until the activity ends, then tool.TaskCompleted,
	// TaskFailed or TaskKilled.
	Status string
	cancel workflow.CancelFunc
	// stopping: TaskStop or the session's end stopped it; the model is not told.
	stopping bool
}

func (t *backgroundTask) running() bool { return t.Status == "running" }

// backgroundGrace is how long past its own timeout a background command may take
// to be killed and reported before Temporal gives up on it.
const backgroundGrace = time.Minute

// serveBackground answers the turns' BackgroundAsk signals for the whole run. It
// produces no command until a turn asks, so histories from before background
// shells replay unchanged.
func (s *session) serveBackground(ctx workflow.Context) {
	if s.bg.byID == nil {
		s.bg.byID = map[string]*backgroundTask{}
	}
	ch := workflow.GetSignalChannel(ctx, BackgroundSignal)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			var ask BackgroundAsk
			if !ch.Receive(ctx, &ask) {
				return
			}
			reply := s.answerBackground(ctx, ask)
			// The turn waits for this; a turn that is gone needs no answer.
			_ = workflow.SignalExternalWorkflow(ctx, ask.TurnID, "", backgroundReplySignal(ask.ToolUseID), reply).Get(ctx, nil)
		}
	})
}

func (s *session) answerBackground(ctx workflow.Context, ask BackgroundAsk) BackgroundReply {
	workflow.GetVersion(ctx, backgroundShells, workflow.DefaultVersion, 1) // marks histories that have tasks
	if ask.Stop != "" {
		return s.stopShell(ctx, ask.Stop)
	}
	return s.startShell(ctx, ask)
}

// startShell schedules the command's activity and answers with its task id and
// output file at once, as Claude Code does.
func (s *session) startShell(ctx workflow.Context, ask BackgroundAsk) BackgroundReply {
	var in tool.BashInput
	_ = json.Unmarshal(ask.Call.Input, &in) // validated by the turn
	id := tool.BackgroundTaskID(ask.ToolUseID)
	if t, ok := s.bg.byID[id]; ok { // the same call asked twice: the same task
		return startedReply(t)
	}
	if s.done {
		return BackgroundReply{Content: "Error: the session is ending; the command was not started.", IsError: true}
	}
	t := &backgroundTask{
		ID: id, ToolUseID: ask.ToolUseID, Command: in.Command, Description: in.Description, Status: "running",
		OutputFile: filepath.Join(contract.BackgroundTasksDir(s.resultsDir), id+".output"),
	}
	actx, cancel := workflow.WithCancel(ctx)
	t.cancel = cancel
	actx = workflow.WithActivityOptions(onHost(actx, s.toolQueue()), workflow.ActivityOptions{
		StartToCloseTimeout: in.BackgroundTimeout() + backgroundGrace,
		HeartbeatTimeout:    s.opts.Turn.withDefaults().HeartbeatTimeout,
		WaitForCancellation: true,
		Summary:             fmt.Sprintf("Bash in background (%s): %s", id, in.Command),
		// A command with side effects runs at most once: a dead worker's task is
		// reported lost, not started again.
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	fut := workflow.ExecuteActivity(actx, contract.BashBackgroundActivityName, contract.BackgroundRequest{
		Call: ask.Call, TaskID: id, OutputFile: t.OutputFile,
	})
	s.bg.byID[id] = t
	s.bg.order = append(s.bg.order, id)
	workflow.Go(ctx, func(ctx workflow.Context) {
		var out contract.BackgroundOutcome
		err := fut.Get(ctx, &out)
		s.taskEnded(ctx, t, out, err)
	})
	return startedReply(t)
}

func startedReply(t *backgroundTask) BackgroundReply {
	resp, _ := json.Marshal(map[string]any{"stdout": "", "stderr": "", "interrupted": false, "isImage": false,
		"noOutputExpected": false, "backgroundTaskId": t.ID})
	return BackgroundReply{Content: tool.BackgroundStarted(t.ID, t.OutputFile), Response: resp}
}

// taskEnded records how a task ended and, unless it was stopped on purpose, tells
// the model in the next user message (which wakes a session that waits for it).
func (s *session) taskEnded(ctx workflow.Context, t *backgroundTask, out contract.BackgroundOutcome, err error) {
	label := fmt.Sprintf("Background command %q", tool.TaskLabel(tool.BashInput{Command: t.Command, Description: t.Description}))
	var summary string
	switch {
	case t.stopping:
		t.Status = tool.TaskKilled
		return
	case err == nil && out.Refused != "":
		t.Status, summary = tool.TaskFailed, label+" did not run: "+out.Refused
	case err == nil && out.TimedOut:
		t.Status, summary = tool.TaskKilled, label+" was stopped: it ran past its timeout"
	case err == nil && out.ExitCode == 0:
		t.Status, summary = tool.TaskCompleted, label+" completed (exit code 0)"
	case err == nil:
		t.Status, summary = tool.TaskFailed, fmt.Sprintf("%s failed with exit code %d", label, out.ExitCode)
	case temporal.IsCanceledError(err):
		t.Status, summary = tool.TaskKilled, label+" was stopped"
	case ownFailure(err):
		t.Status, summary = tool.TaskFailed, label+" failed: "+failureMessage(err)
	default: // its heartbeat timed out (the worker died) or its worker shut down under it
		t.Status, summary = tool.TaskFailed, label+" was lost: the worker running it died, so it stopped and may have partially run"
	}
	// The model reads Claude Code's notification; a person watching a one-line notice.
	s.pendingUser = append(s.pendingUser, conversation.UserText(tool.TaskNotification{TaskID: t.ID,
		ToolUseID: t.ToolUseID, OutputFile: t.OutputFile, Status: t.Status, Summary: summary}.Message()))
	s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf("background task %s %s: %s (output: %s)", t.ID, t.Status, summary, t.OutputFile)})
	s.publish(ctx)
}

// stopShell is TaskStop: it cancels the task's activity and answers once the
// activity has killed the process group, in Claude Code's words.
func (s *session) stopShell(ctx workflow.Context, id string) BackgroundReply {
	t, ok := s.bg.byID[id]
	if !ok {
		return BackgroundReply{Content: tool.UseError("No task found with ID: " + id), IsError: true}
	}
	if !t.running() {
		return BackgroundReply{Content: tool.UseError(fmt.Sprintf("Task %s is not running (status: %s)", id, t.Status)), IsError: true}
	}
	t.stopping = true
	t.cancel()
	_ = workflow.Await(ctx, func() bool { return !t.running() })
	// Claude Code's TaskStopOutput as JSON.stringify writes it: <, > and & as they are.
	var out strings.Builder
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(struct {
		Message  string `json:"message"`
		TaskID   string `json:"task_id"`
		TaskType string `json:"task_type"`
		Command  string `json:"command,omitempty"`
	}{fmt.Sprintf("Successfully stopped task: %s (%s)", id, t.Command), id, "local_bash", t.Command})
	return BackgroundReply{Content: strings.TrimSuffix(out.String(), "\n")}
}

// ownFailure: the activity itself failed (it could not start the process or
// write its output), as opposed to losing its worker. A command's own failure is
// an outcome, never an error.
func ownFailure(err error) bool {
	var ae *temporal.ApplicationError
	return errors.As(err, &ae) && (ae.Type() == contract.ErrInfrastructure || ae.Type() == contract.ErrBadCall)
}

// backgroundRunning says whether any task still runs.
func (s *session) backgroundRunning() bool {
	for _, id := range s.bg.order {
		if s.bg.byID[id].running() {
			return true
		}
	}
	return false
}

// taskList lists every task of the run with its status, for the state query.
func (s *session) taskList() []hooks.BackgroundTask {
	var out []hooks.BackgroundTask
	for _, id := range s.bg.order {
		t := s.bg.byID[id]
		out = append(out, hooks.BackgroundTask{ID: t.ID, Type: "shell", Status: t.Status, Description: t.Description, Command: t.Command})
	}
	return out
}

// carriedTasks bounds how many ended tasks continue-as-new carries: the newest,
// which a model may still name in TaskStop or read the output of.
const carriedTasks = 100

// endedTasks are the ended tasks a continued run keeps, oldest first.
func (s *session) endedTasks() []EndedTask {
	var out []EndedTask
	for _, id := range s.bg.order {
		if t := s.bg.byID[id]; !t.running() {
			out = append(out, EndedTask{ID: t.ID, ToolUseID: t.ToolUseID, Command: capText(t.Command), Description: capText(t.Description),
				OutputFile: t.OutputFile, Status: t.Status})
		}
	}
	if drop := len(out) - carriedTasks; drop > 0 {
		out = out[drop:]
	}
	return out
}

// carriedTextMax bounds a carried task's command and description, so that 100 of
// them stay far below Temporal's 2 MB payload limit whatever the commands were.
const carriedTextMax = 2000

// capText cuts s to carriedTextMax bytes at a rune boundary, marking the cut.
func capText(s string) string {
	if len(s) <= carriedTextMax {
		return s
	}
	return strings.ToValidUTF8(s[:carriedTextMax], "") + "…"
}

// restoreTasks puts back the ended tasks an earlier run carried.
func (s *session) restoreTasks(tasks []EndedTask) {
	if len(tasks) == 0 {
		return
	}
	s.bg.byID = make(map[string]*backgroundTask, len(tasks))
	for _, t := range tasks {
		s.bg.byID[t.ID] = &backgroundTask{ID: t.ID, ToolUseID: t.ToolUseID, Command: t.Command, Description: t.Description,
			OutputFile: t.OutputFile, Status: t.Status}
		s.bg.order = append(s.bg.order, t.ID)
	}
}

// runningTasks lists the running tasks as Stop hooks get them (background_tasks).
func (s *session) runningTasks() *[]hooks.BackgroundTask {
	out := []hooks.BackgroundTask{}
	for _, id := range s.bg.order {
		if t := s.bg.byID[id]; t.running() {
			out = append(out, hooks.BackgroundTask{ID: t.ID, Type: "shell", Status: t.Status,
				Description: t.Description, Command: t.Command})
		}
	}
	return &out
}

// awaitBackground: the model ended its turn while tasks still run. The session
// does not end then: it waits, idle, until a task ends (its notification wakes the
// model, as in Claude Code) or the user sends a message. Stops that are not the
// model's own (a hook, the turn or budget limit, a model error) end the session
// and its tasks.
func (s *session) awaitBackground(ctx workflow.Context) error {
	switch s.stopReason {
	case "", StopHook, StopMaxTurns, StopMaxBudget, StopModelError:
		return nil
	}
	if len(s.pendingUser) > 0 { // a task ended since the model's last word: it hears of it
		s.stopReason = ""
		return nil
	}
	if !s.backgroundRunning() {
		return nil
	}
	reason := s.stopReason
	var ids []string
	for _, id := range s.bg.order {
		if s.bg.byID[id].running() {
			ids = append(ids, id)
		}
	}
	s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf("waiting for background tasks %s: the first to end wakes the model (a message sent meanwhile too)",
		strings.Join(ids, ", "))})
	s.stopReason, s.phase = "", PhaseBackground
	s.publish(ctx)
	err := workflow.Await(ctx, func() bool { return len(s.pendingUser) > 0 || !s.backgroundRunning() })
	if len(s.pendingUser) == 0 {
		s.stopReason = reason
	}
	s.phase = PhaseIdle
	return err
}

// stopBackground stops every running task when the session ends and waits until
// their processes are gone; the model is not told (nothing will call it again).
func (s *session) stopBackground(ctx workflow.Context) {
	if !s.backgroundRunning() {
		return
	}
	for _, id := range s.bg.order {
		if t := s.bg.byID[id]; t.running() {
			t.stopping = true
			t.cancel()
		}
	}
	_ = workflow.Await(ctx, func() bool { return !s.backgroundRunning() })
}
