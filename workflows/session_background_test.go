package workflows_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	"golang.org/x/sys/unix"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/internal/testfs"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// mkfifo makes a named pipe in dir: a background command and the test (or another
// tool) meet on it without polling.
func mkfifo(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := unix.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// taskOutput is where a session's background task writes.
func (h *agentHarness) taskOutput(session, toolUseID string) (id, file string) {
	id = tool.BackgroundTaskID(toolUseID)
	return id, filepath.Join(h.state, session, "tasks", id+".output")
}

// A background command answers at once with its id and output file, keeps running
// while the model reads that file, and when it ends after the model has finished
// its turn the session wakes and tells the model with Claude Code's
// <task-notification> in a new user message.
func TestBackgroundShellNotifiesWhenItEnds(t *testing.T) {
	work := t.TempDir()
	ready, release := mkfifo(t, work, "ready"), mkfifo(t, work, "release")
	h := newIdleAgentHarness(t)
	id, out := h.taskOutput("s1", "bg1")
	h.fake.Add(
		fakeanthropic.Response{Content: []wire.Block{use("bg1", "Bash", map[string]any{
			"command": "echo started; echo > ready; read x < release; echo finished", "description": "wait for release",
			"run_in_background": true})}},
		// Once the command has written "started" (it then opens ready), Read its file.
		fakeanthropic.Response{Content: []wire.Block{use("sync", "Bash", map[string]any{"command": "cat ready"})}},
		fakeanthropic.Response{Content: []wire.Block{use("peek", "Read", map[string]any{"file_path": out})}},
		fakeanthropic.Response{Content: []wire.Block{text("It runs; I will wait.")}},
		fakeanthropic.Response{When: "<task-notification>", Content: []wire.Block{text("It finished.")}},
	)
	h.startWorker()
	run := h.start(workflows.SessionInput{Prompt: "start it", Workdir: work, Options: fastOptions()})
	if err := h.fake.WaitRequests(testenv.Context(t), 4); err != nil {
		t.Fatal(err)
	}
	// The model has ended its turn; the session must wait, not end.
	f, err := os.OpenFile(release, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("go\n")
	f.Close()
	res := h.result(run)
	if res.StopReason != "end_turn" || res.Text != "It finished." {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5", len(reqs))
	}
	started := userResults(reqs[1].Messages[len(reqs[1].Messages)-1])["bg1"]
	want := tool.BackgroundStarted(id, out)
	if started.Content != want || started.IsError {
		t.Fatalf("Bash result %q, want %q", started.Content, want)
	}
	peek := userResults(reqs[3].Messages[len(reqs[3].Messages)-1])["peek"]
	if !strings.Contains(peek.Content, "started") || strings.Contains(peek.Content, "finished") {
		t.Fatalf("Read of the output while the command runs: %q", peek.Content)
	}
	note := tool.TaskNotification{TaskID: id, ToolUseID: "bg1", OutputFile: out, Status: "completed",
		Summary: `Background command "wait for release" completed (exit code 0)`}.Message()
	if got := lastUserText(reqs[4]); got != note {
		t.Fatalf("last request's user message:\n%s\nwant\n%s", got, note)
	}
	if b, _ := os.ReadFile(out); string(b) != "started\nfinished\n\n[exited with code 0]" {
		t.Fatalf("output file %q", b)
	}
	_ = ready
}

// waitPhase polls the session's state query until it is in phase: no event tells
// a test that the session has settled.
func (h *agentHarness) waitPhase(id string, phase workflows.SessionPhase) workflows.SessionState {
	h.t.Helper()
	var st workflows.SessionState
	poll(h.t, "phase "+string(phase), func() bool {
		v, err := h.c.QueryWorkflow(testenv.Context(h.t), id, "", contract.SessionStateQuery)
		return err == nil && v.Get(&st) == nil && st.Phase == phase
	})
	return st
}

// pidOf reads the pid a command wrote.
func pidOf(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func gone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

// TaskStop kills a background command's processes before it answers, in Claude
// Code's words; stopping it again or an unknown id is a tool_use_error; and the
// session's end stops the tasks still running, without telling the model.
func TestTaskStopAndSessionEndKillBackgroundShells(t *testing.T) {
	work := t.TempDir()
	mkfifo(t, work, "r1")
	mkfifo(t, work, "r2")
	h := newIdleAgentHarness(t)
	id1, _ := h.taskOutput("s1", "bg1")
	h.fake.Add(
		fakeanthropic.Response{Content: []wire.Block{
			use("bg1", "Bash", map[string]any{"command": "echo $$ > pid1; echo > r1; exec sleep 300", "run_in_background": true}),
			use("bg2", "Bash", map[string]any{"command": "echo $$ > pid2; echo > r2; exec sleep 300", "run_in_background": true}),
		}},
		fakeanthropic.Response{Content: []wire.Block{use("sync", "Bash", map[string]any{"command": "cat r1 r2"})}},
		fakeanthropic.Response{Content: []wire.Block{use("stop", "TaskStop", map[string]any{"task_id": id1})}},
		fakeanthropic.Response{Content: []wire.Block{
			use("check", "Bash", map[string]any{"command": "kill -0 $(cat pid1) 2>/dev/null && echo alive || echo gone"}),
			use("again", "TaskStop", map[string]any{"shell_id": id1}),
			use("nope", "TaskStop", map[string]any{"task_id": "bnothere"}),
		}},
	)
	h.startWorker()
	opts := fastOptions()
	opts.MaxTurns = 4
	res := h.result(h.start(workflows.SessionInput{Prompt: "start them", Workdir: work, Options: opts}))
	if res.StopReason != workflows.StopMaxTurns {
		t.Fatalf("result %+v", res)
	}
	// The session has ended: no task of it runs on.
	pid1, pid2 := pidOf(t, filepath.Join(work, "pid1")), pidOf(t, filepath.Join(work, "pid2"))
	if !gone(pid1) || !gone(pid2) {
		t.Fatalf("processes left after the session ended: %d gone %v, %d gone %v", pid1, gone(pid1), pid2, gone(pid2))
	}
	msgs := h.storedMessages(res.Conversation)
	results := map[string]wire.Block{}
	for _, m := range msgs {
		for k, v := range userResults(m) {
			results[k] = v
		}
		for _, b := range m.Content {
			if strings.Contains(b.Text, "<task-notification>") {
				t.Errorf("the model was told of a task it stopped or the session's end stopped: %q", b.Text)
			}
		}
	}
	wantStop := `{"message":"Successfully stopped task: ` + id1 + ` (echo $$ > pid1; echo > r1; exec sleep 300)","task_id":"` + id1 +
		`","task_type":"local_bash","command":"echo $$ > pid1; echo > r1; exec sleep 300"}`
	if r := results["stop"]; r.Content != wantStop || r.IsError {
		t.Errorf("TaskStop: %+v\nwant %s", r, wantStop)
	}
	if r := results["check"]; r.Content != "gone" {
		t.Errorf("after TaskStop the process is %q, want gone", r.Content)
	}
	if r := results["again"]; r.Content != "<tool_use_error>Task "+id1+" is not running (status: killed)</tool_use_error>" || !r.IsError {
		t.Errorf("TaskStop again: %+v", r)
	}
	if r := results["nope"]; r.Content != "<tool_use_error>No task found with ID: bnothere</tool_use_error>" || !r.IsError {
		t.Errorf("TaskStop of an unknown id: %+v", r)
	}
}

// A background task whose worker dies is reported to the model as lost, with the
// failed status, by the session running on another worker; it is not run again.
func TestBackgroundShellLostWithItsWorker(t *testing.T) {
	work := t.TempDir()
	mkfifo(t, work, "r1")
	h := newIdleAgentHarness(t)
	id, out := h.taskOutput("s1", "bg1")
	h.fake.Add(
		fakeanthropic.Response{Content: []wire.Block{use("bg1", "Bash", map[string]any{
			"command": "echo ran >> count; echo $$ > pid1; echo > r1; exec sleep 300", "description": "long job", "run_in_background": true})}},
		fakeanthropic.Response{Content: []wire.Block{use("sync", "Bash", map[string]any{"command": "cat r1"})}},
		fakeanthropic.Response{Content: []wire.Block{text("Waiting for it.")}},
		fakeanthropic.Response{When: "<task-notification>", Content: []wire.Block{text("It was lost.")}},
	)
	w1 := h.startWorker()
	run := h.start(workflows.SessionInput{Prompt: "start it", Workdir: work, Options: fastOptions()})
	st := h.waitPhase(run.GetID(), workflows.PhaseBackground)
	if len(st.BackgroundTasks) != 1 || st.BackgroundTasks[0].ID != id || st.BackgroundTasks[0].Status != "running" {
		t.Errorf("state's background tasks %+v, want %s running", st.BackgroundTasks, id)
	}
	pid := pidOf(t, filepath.Join(work, "pid1"))
	w1.Stop()
	poll(t, "the command to die with its worker", func() bool { return gone(pid) })
	start := time.Now()
	h.startWorker()
	res := h.result(run)
	if res.Text != "It was lost." {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	note := tool.TaskNotification{TaskID: id, ToolUseID: "bg1", OutputFile: out, Status: "failed",
		Summary: `Background command "long job" was lost: the worker running it died, so it stopped and may have partially run`}.Message()
	if got := lastUserText(reqs[len(reqs)-1]); got != note {
		t.Fatalf("last request's user message:\n%s\nwant\n%s", got, note)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "count")); string(b) != "ran\n" {
		t.Fatalf("count is %q: the lost command ran again", b)
	}
	t.Logf("lost task reported %s after the new worker started", time.Since(start).Round(time.Millisecond))
}

// Hooks see a background command as Claude Code shows it: PostToolUse gets a Bash
// tool_response with backgroundTaskId, Stop gets background_tasks (the running
// task, then an empty list), and the notification reaches UserPromptSubmit as the
// prompt it is.
func TestBackgroundShellHookInputs(t *testing.T) {
	work := t.TempDir()
	mkfifo(t, work, "release")
	h := newIdleAgentHarness(t)
	id, out := h.taskOutput("s1", "bg1")
	command := "read x < release; echo bg"
	h.fake.Add(
		fakeanthropic.Response{Content: []wire.Block{use("bg1", "Bash", map[string]any{
			"command": command, "description": "bg", "run_in_background": true})}},
		fakeanthropic.Response{Content: []wire.Block{text("done")}},
		fakeanthropic.Response{When: "<task-notification>", Content: []wire.Block{text("x")}},
	)
	h.startWorker()
	log := filepath.Join(work, "hook-inputs.jsonl")
	record := `in=$(cat); printf '%s\n' "$in" >> "$CLAUDE_PROJECT_DIR/hook-inputs.jsonl"`
	cmd := func(c string) []hooks.Group { return []hooks.Group{{Hooks: []hooks.Command{{Command: c}}}} }
	s := &workflows.TurnSettings{ProjectDir: work, Hooks: hooks.Config{
		PostToolUse:      cmd(record),
		UserPromptSubmit: cmd(record),
		// The first Stop, with the task running, lets it finish.
		Stop: cmd(record + `; case "$in" in *'"status":"running"'*) echo go > "$CLAUDE_PROJECT_DIR/release";; esac`),
	}}
	res := h.result(h.start(workflows.SessionInput{Prompt: "start it", Workdir: work, Settings: s, Options: fastOptions()}))
	if res.Text != "x" {
		t.Fatalf("result %+v", res)
	}
	note := tool.TaskNotification{TaskID: id, ToolUseID: "bg1", OutputFile: out, Status: "completed",
		Summary: `Background command "bg" completed (exit code 0)`}.Message()
	var got []string
	for _, in := range testfs.ReadJSONValues(t, log) {
		ev := in["hook_event_name"].(string)
		switch ev {
		case "PostToolUse":
			want := map[string]any{"stdout": "", "stderr": "", "interrupted": false, "isImage": false,
				"noOutputExpected": false, "backgroundTaskId": id}
			if fmt.Sprint(in["tool_response"]) != fmt.Sprint(want) {
				t.Errorf("PostToolUse tool_response %v, want %v", in["tool_response"], want)
			}
		case "Stop":
			tasks, ok := in["background_tasks"].([]any)
			if !ok {
				t.Fatalf("Stop input without background_tasks: %v", in)
			}
			ev += fmt.Sprintf("(%d)", len(tasks))
			if len(tasks) == 1 {
				want := map[string]any{"id": id, "type": "shell", "status": "running", "description": "bg", "command": command}
				if fmt.Sprint(tasks[0]) != fmt.Sprint(want) {
					t.Errorf("background_tasks %v, want %v", tasks[0], want)
				}
			}
		case "UserPromptSubmit":
			if in["prompt"] == note {
				ev += "(notification)"
			}
		}
		got = append(got, ev)
	}
	want := "UserPromptSubmit,PostToolUse,Stop(1),UserPromptSubmit(notification),Stop(0)"
	if strings.Join(got, ",") != want {
		t.Fatalf("hook events %s, want %s", strings.Join(got, ","), want)
	}
}

// A turn on its own (`starter run`, no session) has no one to run a background
// command on or to tell the model when it ends: run_in_background is refused with
// what to do instead, and TaskStop finds no task.
func TestBackgroundShellNeedsASession(t *testing.T) {
	h := realHarness(t)
	dir := t.TempDir()
	res := h.result(h.start(workflows.TurnInput{Workdir: dir, CloseIntake: true, Blocks: []tool.Block{
		{ID: "b1", Name: tool.BashName, Input: raw(map[string]any{"command": "touch ran", "run_in_background": true})},
		{ID: "s1", Name: tool.TaskStopName, Input: raw(map[string]any{"task_id": "b12345678"})},
		{ID: "s2", Name: tool.TaskStopName, Input: raw(map[string]any{})},
	}}))
	if r := byID(res.Results, "b1"); !r.IsError || !strings.HasPrefix(r.Content, "run_in_background needs an agent session (starter agent)") {
		t.Errorf("b1: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the refused background command ran")
	}
	if r := byID(res.Results, "s1"); !r.IsError || r.Content != "<tool_use_error>No task found with ID: b12345678</tool_use_error>" {
		t.Errorf("s1: %+v", r)
	}
	if r := byID(res.Results, "s2"); !r.IsError || r.Content != "<tool_use_error>Missing required parameter: task_id</tool_use_error>" {
		t.Errorf("s2: %+v", r)
	}
}

// A background command that runs past its timeout is killed, its file says so, and
// the model is told it was stopped (status killed).
func TestBackgroundShellTimeout(t *testing.T) {
	work := t.TempDir()
	h := newIdleAgentHarness(t)
	id, out := h.taskOutput("s1", "bg1")
	h.fake.Add(
		fakeanthropic.Response{Content: []wire.Block{use("bg1", "Bash", map[string]any{
			"command": "echo $$ > pid; echo begun; exec sleep 300", "description": "too long", "timeout": 1000, "run_in_background": true})}},
		fakeanthropic.Response{Content: []wire.Block{text("Waiting.")}},
		fakeanthropic.Response{When: "<task-notification>", Content: []wire.Block{text("It timed out.")}},
	)
	h.startWorker()
	res := h.result(h.start(workflows.SessionInput{Prompt: "start it", Workdir: work, Options: fastOptions()}))
	if res.Text != "It timed out." {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	note := tool.TaskNotification{TaskID: id, ToolUseID: "bg1", OutputFile: out, Status: "killed",
		Summary: `Background command "too long" was stopped: it ran past its timeout`}.Message()
	if got := lastUserText(reqs[len(reqs)-1]); got != note {
		t.Fatalf("last request's user message:\n%s\nwant\n%s", got, note)
	}
	if b, _ := os.ReadFile(out); string(b) != "begun\n\n[stopped after its timeout of 1s]" {
		t.Fatalf("output file %q", b)
	}
	if pid := pidOf(t, filepath.Join(work, "pid")); !gone(pid) {
		t.Fatalf("the timed-out command %d still runs", pid)
	}
}

// A continued session still knows the background tasks that ended in an earlier
// run: TaskStop on one says it is not running (with its status), not that there is
// no such task, and the session's state lists it.
func TestEndedTasksSurviveContinueAsNew(t *testing.T) {
	h := newIdleAgentHarness(t)
	id, _ := h.taskOutput("s1", "bg1")
	h.fake.Add(
		fakeanthropic.Response{Content: []wire.Block{use("bg1", "Bash", map[string]any{"command": "echo hi", "run_in_background": true})}},
		fakeanthropic.Response{When: "<task-notification>", Content: []wire.Block{use("stop", "TaskStop", map[string]any{"task_id": id})}},
		fakeanthropic.Response{Content: []wire.Block{text("Waiting for it.")}},
		fakeanthropic.Response{Content: []wire.Block{text("Done.")}},
	)
	h.startWorker()
	opts := fastOptions()
	opts.ContinueAsNewEvery = 1 // a new run as soon as no task runs
	run := h.start(workflows.SessionInput{Prompt: "start it", Options: opts})
	res := h.result(run)
	v, err := h.c.QueryWorkflow(testenv.Context(t), run.GetID(), "", contract.SessionStateQuery)
	if err != nil {
		t.Fatal(err)
	}
	var st workflows.SessionState
	if err := v.Get(&st); err != nil {
		t.Fatal(err)
	}
	if st.Runs < 2 {
		t.Fatalf("the session ran in %d run(s); the test needs it continued", st.Runs)
	}
	if len(st.BackgroundTasks) != 1 || st.BackgroundTasks[0].ID != id || st.BackgroundTasks[0].Status != tool.TaskCompleted {
		t.Errorf("the last run's state lists %+v, want %s %s", st.BackgroundTasks, id, tool.TaskCompleted)
	}
	msgs := h.storedMessages(res.Conversation)
	var stop *wire.Block
	for _, m := range msgs {
		if r, ok := userResults(m)["stop"]; ok {
			stop = &r
		}
	}
	want := "<tool_use_error>Task " + id + " is not running (status: " + tool.TaskCompleted + ")</tool_use_error>"
	if stop == nil || stop.Content != want || !stop.IsError {
		t.Fatalf("TaskStop of a task that ended in an earlier run: %+v\nwant %s", stop, want)
	}
}
