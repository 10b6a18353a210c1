package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/proctest"
	"github.com/toolpipe/toolpipe/wire"
)

// Ctrl-C (SIGINT to the binary) of `starter agent` while its tool runs: stderr says
// at once that the session is paused and how to resume it, the exit status is 130
// (not 1, which says the infrastructure failed), and the tool is stopped: a command
// that would write a file 5 s later never does (a worker's grace of 10 s let it run
// on, silently). Afterwards `agent status` and `starter status session-S` say paused,
// and no call is shown executing.
func TestCtrlCOfAgentSaysPausedAndStopsTheTool(t *testing.T) {
	work, state := t.TempDir(), t.TempDir()
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{toolUseBlock("b1", "Bash", `{"command":"echo started > running; sleep 5.0417; echo late > late"}`)}},
		{Content: []wire.Block{{Type: "text", Text: "finished"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	cmd := starter(t, state, "agent", "--session", "ctrlc", "--workdir", work, "sleep a while")
	cmd.Env = append(cmd.Env, "ANTHROPIC_BASE_URL="+fake.URL(), "ANTHROPIC_API_KEY=k-e2e")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFile(t, filepath.Join(work, "running"), time.Minute)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit: %v, want status 130\n%s", err, stderr.String())
	}
	for _, want := range []string{"starter: Ctrl-C (SIGINT): session ctrlc is paused", "To resume, run `starter agent --session ctrlc`"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if strings.Contains(stderr.String(), "stopped watching") {
		t.Errorf("stderr says the session goes on:\n%s", stderr.String())
	}
	// The tool was stopped before this process exited: its command is gone, and
	// did not live the 5 s to write its file.
	if pid := proctest.Find("sleep", "5.0417"); pid != 0 {
		t.Errorf("the tool's command still runs (pid %d) after the starter exited", pid)
	}
	if _, err := os.Stat(filepath.Join(work, "late")); err == nil {
		t.Errorf("the tool ran on after Ctrl-C and wrote its file")
	}

	for _, args := range [][]string{{"agent", "status", "ctrlc"}, {"status", "session-ctrlc"}} {
		out, _ := output(t, strings.Join(args, " "), starter(t, state, args...))
		if !strings.Contains(string(out), "phase             paused: its starter exited") || strings.Contains(string(out), "executing\t") ||
			strings.Contains(string(out), " executing ") {
			t.Errorf("%s after Ctrl-C:\n%s", strings.Join(args, " "), out)
		}
	}
}
