package reliability

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/proctest"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// TestBashPastItsTimeoutLeavesNoProcess: a Bash call that hangs past its timeout
// (two background sleeps, one of them started by a subshell, and a wait) gets a
// timed-out error result, and none of its processes is left running.
func TestBashPastItsTimeoutLeavesNoProcess(t *testing.T) {
	e := newEnv(t)
	e.inProcessWorker()
	// Unusual durations identify the processes in /proc.
	a, b := uniqueSleep(), uniqueSleep()
	cmd := fmt.Sprintf("sleep %s & (sleep %s &); wait", a, b)
	run := e.start("hang", workflows.TurnInput{Workdir: t.TempDir(), CloseIntake: true, Blocks: []tool.Block{
		{ID: "hang", Name: tool.BashName, Input: raw(map[string]any{"command": cmd, "timeout": 1500})},
	}})
	var pids []int
	poll(t, "the command's processes to start", time.Minute, func() bool {
		pids = []int{proctest.Find("sleep", a), proctest.Find("sleep", b)}
		return pids[0] != 0 && pids[1] != 0
	})
	var res workflows.TurnResult
	if err := run.Get(testenv.Context(t), &res); err != nil {
		t.Fatal(err)
	}
	if r := res.Results[0]; !r.IsError || !strings.Contains(r.Content, "timed out after 1500ms") {
		t.Fatalf("result %+v, want a timeout error", r)
	}
	for _, pid := range pids {
		poll(t, fmt.Sprintf("process %d to be gone", pid), 20*time.Second, func() bool { return proctest.Gone(pid) })
	}
	e.healthy()
}

// TestHangingHookIsKilledAndTheCallProceeds: a PreToolUse hook that never ends (and
// leaves a background child) is killed at its timeout with its whole process group;
// the call proceeds (DESIGN §5: a hook that times out does not block) and the turn
// tells the user.
func TestHangingHookIsKilledAndTheCallProceeds(t *testing.T) {
	e := newEnv(t)
	e.inProcessWorker()
	a, b := uniqueSleep(), uniqueSleep()
	hook := hooks.Command{Command: fmt.Sprintf("sleep %s & sleep %s", a, b), Timeout: 1}
	settings := &workflows.TurnSettings{Hooks: hooks.Config{PreToolUse: []hooks.Group{{Matcher: "Bash", Hooks: []hooks.Command{hook}}}}}
	run := e.start("hook", workflows.TurnInput{Workdir: t.TempDir(), CloseIntake: true, Settings: settings,
		Blocks: []tool.Block{bash("b1", "echo went ahead")}})
	var pids []int
	poll(t, "the hook's processes to start", time.Minute, func() bool {
		pids = []int{proctest.Find("sleep", a), proctest.Find("sleep", b)}
		return pids[0] != 0 && pids[1] != 0
	})
	var res workflows.TurnResult
	if err := run.Get(testenv.Context(t), &res); err != nil {
		t.Fatal(err)
	}
	if r := res.Results[0]; r.IsError || r.Content != "went ahead" {
		t.Fatalf("result %+v", r)
	}
	var notes []string
	for _, n := range res.Notices {
		notes = append(notes, n.Text)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "timed out after 1s") {
		t.Errorf("notices %q do not tell of the timeout", notes)
	}
	for _, pid := range pids {
		poll(t, fmt.Sprintf("hook process %d to be gone", pid), 20*time.Second, func() bool { return proctest.Gone(pid) })
	}
}

var sleeps int

// uniqueSleep returns a sleep duration no other process on the machine uses.
func uniqueSleep() string {
	sleeps++
	return fmt.Sprintf("%d.%d%d", 3000+sleeps, os.Getpid(), sleeps)
}
