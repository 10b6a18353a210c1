package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/internal/proctest"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// realHarness runs Turns with the real tool activities.
func realHarness(t *testing.T) *harness {
	acts, err := activities.New(activities.Config{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, probe: newProbe(), queue: testenv.TaskQueue(t), c: testenv.Client()}
	testenv.StartWorker(t, h.queue, func(r sdkworker.Registry) { plugin.Register(r, acts) })
	return h
}

// poll waits for a condition outside this process (another process's state).
func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// §3.6 with real processes: a failing read-only Bash cancels a running sibling Bash,
// whose process is really gone, and a queued Edit gets the synthetic error.
func TestBashErrorKillsSiblingProcess(t *testing.T) {
	h := realHarness(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "gate")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sleepArg := "271.828" // a duration no other process uses, to find it by
	run := h.start(workflows.TurnInput{Workdir: dir, CloseIntake: true, Blocks: []tool.Block{
		bashB("long", "sleep "+sleepArg),
		bashB("fail", "cat gate && ls /definitely-not-here"),
		{ID: "e1", Name: tool.EditName, Input: raw(map[string]any{"file_path": filepath.Join(dir, "f"), "old_string": "a", "new_string": "b"})},
	}})
	var pid int
	poll(t, "the sibling's sleep to start", func() bool { pid = proctest.Find("sleep", sleepArg); return pid != 0 })
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil { // lets "fail" fail
		t.Fatal(err)
	}
	res := h.result(run)
	want := scheduler.SiblingErrorMessage("Bash(cat gate && ls /definitely-not-here)")
	if r := byID(res.Results, "long"); !r.IsError || r.Content != want {
		t.Errorf("long: %+v", r)
	}
	if r := byID(res.Results, "e1"); !r.IsError || r.Content != want {
		t.Errorf("e1: %+v", r)
	}
	if r := byID(res.Results, "fail"); !r.IsError || !strings.Contains(r.Content, "Exit code 2") {
		t.Errorf("fail: %+v", r)
	}
	poll(t, "the cancelled sibling's process to be gone", func() bool { return proctest.Gone(pid) })
}

// §3.9: context modifiers apply in order on yield: an Edit after a Read of the same
// file in one turn sees the Read; an Edit of an unread file is refused.
func TestContextModifiersReadThenEdit(t *testing.T) {
	h := realHarness(t)
	dir := t.TempDir()
	read, unread := filepath.Join(dir, "read.txt"), filepath.Join(dir, "unread.txt")
	for _, p := range []string{read, unread} {
		if err := os.WriteFile(p, []byte("alpha\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	editOf := func(id, p string) tool.Block {
		return tool.Block{ID: id, Name: tool.EditName, Input: raw(map[string]any{"file_path": p, "old_string": "alpha", "new_string": "beta"})}
	}
	res := h.result(h.start(workflows.TurnInput{Workdir: dir, CloseIntake: true, Blocks: []tool.Block{
		{ID: "r1", Name: tool.ReadName, Input: raw(map[string]any{"file_path": read})},
		editOf("e1", read), editOf("e2", unread),
	}}))
	if r := byID(res.Results, "e1"); r.IsError {
		t.Errorf("edit after read: %+v", r)
	}
	if r := byID(res.Results, "e2"); !r.IsError || r.Content != tool.UseError(activities.NotReadMessage) {
		t.Errorf("edit of unread file: %+v", r)
	}
	if b, _ := os.ReadFile(read); string(b) != "beta\n" {
		t.Errorf("read.txt is %q", b)
	}
	if got := res.Context.ReadFiles; len(got) != 1 || got[0] != read {
		t.Errorf("final context %v", got)
	}
}
