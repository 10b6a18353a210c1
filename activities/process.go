package activities

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// killGrace is how long a process group has between SIGTERM and SIGKILL.
const killGrace = 2 * time.Second

// procSpec is a command to run in its own process group.
type procSpec struct {
	path string
	args []string
	dir  string
	// env is the process's environment ("NAME=value"); nil inherits the worker's,
	// which only tests should do (toolEnv builds the tools' one).
	env     []string
	timeout time.Duration // 0: none
	// progress, when set, is told of the output file so heartbeats can carry its tail.
	progress *tailer
	// outputFile, when set, is where the output goes (a background task's file,
	// which the model reads while it runs): created or truncated, and kept
	// whatever happens, instead of a temporary file removed on failure.
	outputFile string
}

// procResult is how a process group ended. Output is in a file, not in memory, so a
// command printing gigabytes costs disk, not worker memory.
type procResult struct {
	exitCode int
	timedOut bool
	output   *os.File // positioned at 0; the caller closes and removes it
	pid      int
}

// runGroup runs spec in a new process group with stdout and stderr going to one file
// in scratch. On cancellation or timeout the whole group is killed, and after the
// leader exits any background children left in the group are killed too: a tool
// never leaves orphans behind. On cancellation it returns ctx.Err().
func runGroup(ctx context.Context, scratch string, spec procSpec) (procResult, error) {
	if err := os.MkdirAll(scratch, 0o700); err != nil {
		return procResult{}, fmt.Errorf("process: scratch dir: %w", err)
	}
	out, err := openOutput(scratch, spec.outputFile)
	if err != nil {
		return procResult{}, fmt.Errorf("process: output file: %w", err)
	}
	fail := func(err error) (procResult, error) {
		out.Close()
		if spec.outputFile == "" {
			os.Remove(out.Name())
		}
		return procResult{}, err
	}
	cmd := exec.Command(spec.path, spec.args...)
	cmd.Dir = spec.dir
	cmd.Env = spec.env
	cmd.Stdout, cmd.Stderr = out, out
	// Its own session, and so its own group, so cancellation kills everything the
	// command started; no controlling terminal, so it cannot read or write the
	// user's (a sudo password prompt, keystrokes pushed into the terminal) and is
	// not in the worker's session; and killed with the worker, so a crashed worker
	// leaves no shell running on. The shell's children outlive the worker, though:
	// the group is recorded (group_record.go) for the next worker's sweep to kill.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fail(fmt.Errorf("process: start %s: %w", filepath.Base(spec.path), err))
	}
	pgid := cmd.Process.Pid
	// Forgotten only after the group's last kill below (defers run last).
	defer groupStarted(ctx, pgid)()
	if spec.progress != nil {
		spec.progress.follow(out.Name())
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var timeout <-chan time.Time
	if spec.timeout > 0 {
		t := time.NewTimer(spec.timeout)
		defer t.Stop()
		timeout = t.C
	}
	res := procResult{pid: pgid}
	var waitErr error
	select {
	case waitErr = <-exited:
	case <-ctx.Done():
		waitErr = stopGroup(pgid, exited)
		syscall.Kill(-pgid, syscall.SIGKILL)
		return fail(ctx.Err())
	case <-timeout:
		res.timedOut = true
		waitErr = stopGroup(pgid, exited)
	}
	syscall.Kill(-pgid, syscall.SIGKILL) // background children of the command
	res.exitCode = exitCode(waitErr)
	if _, err := out.Seek(0, io.SeekStart); err != nil {
		return fail(fmt.Errorf("process: rewind output: %w", err))
	}
	res.output = out
	return res, nil
}

// openOutput opens the file a process writes to: the given one, or a new
// temporary file in scratch.
func openOutput(scratch, file string) (*os.File, error) {
	if file == "" {
		return os.CreateTemp(scratch, "output-*")
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return nil, err
	}
	return os.OpenFile(file, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
}

// stopGroup sends SIGTERM to the group, then SIGKILL after the grace period, and
// returns once the leader has exited.
func stopGroup(pgid int, exited <-chan error) error {
	syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case err := <-exited:
		return err
	case <-time.After(killGrace):
		syscall.Kill(-pgid, syscall.SIGKILL)
		return <-exited
	}
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	return -1
}

// discard closes and removes a finished process's output file.
func (r procResult) discard() {
	if r.output != nil {
		r.output.Close()
		os.Remove(r.output.Name())
	}
}
