package activities

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/toolenv"
)

// readerGrace bounds how long the output of a finished hook is drained: a process
// that left the hook's process group (setsid) may hold the pipes open forever.
const readerGrace = 2 * time.Second

// hookShell runs hook commands: Claude Code 2.1.328 starts them with Node's
// shell option, which is /bin/sh on Linux and macOS (a "shell": "bash" in the
// hook's settings changes nothing there).
const hookShell = "/bin/sh"

// RunHook runs one Claude Code hook command with /bin/sh -c, as Claude Code 2.1.328
// does (a bash-only construct fails there too: dash on Debian), in its own process
// group, in the invocation's directory with the environment Claude Code gives hooks
// (hookCommandEnv: CLAUDECODE=1, CLAUDE_PROJECT_DIR, the session's id, …) and the
// hook input on stdin. Its exit code, stdout and stderr (each cut to hooks.OutputCap) and duration
// are returned to be recorded in history; what they mean is for hooks.Parse to say.
// A hook past its timeout is killed with its group and reported as TimedOut, which
// does not block the call. A hook that cannot start is a Run with Failure set, not an
// activity failure: retrying would not help and the call must still proceed.
func (a *Activities) RunHook(ctx context.Context, inv hooks.Invocation) (hooks.Run, error) {
	run := hooks.Run{Command: inv.Command, Timeout: inv.Timeout()}
	stop := keepAlive(ctx, inv.ToolUseID, nil)
	defer stop()
	start := time.Now()
	err := runHookProcess(ctx, inv, &run)
	run.Duration = time.Since(start)
	if err != nil && ctx.Err() != nil {
		return hooks.Run{}, ctx.Err()
	}
	if err != nil {
		run.Failure = err.Error()
	}
	return run, nil
}

// runHookProcess runs the command and fills in run. The pipes are plain os.Pipes so
// that waiting for the process does not wait for its output to be copied: a hook's
// background child holding stdout must not keep the hook running.
func runHookProcess(ctx context.Context, inv hooks.Invocation, run *hooks.Run) error {
	var p [3][2]*os.File // stdin, stdout, stderr: read end, write end
	for i := range p {
		r, w, err := os.Pipe()
		if err != nil {
			return fmt.Errorf("hook: pipe: %w", err)
		}
		p[i] = [2]*os.File{r, w}
		defer r.Close()
		defer w.Close()
	}
	cmd := exec.Command(hookShell, "-c", inv.Command)
	cmd.Dir = inv.Cwd
	// The environment tools get (secrets removed): a hook is a program like a tool.
	cmd.Env = hookCommandEnv(toolenv.FromEnvironment().Environ(os.Environ()), inv.SessionID, inv.ProjectDir)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p[0][0], p[1][1], p[2][1]
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // its own session and group, as a tool (process.go)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("hook: start %s: %w", hookShell, err)
	}
	pgid := cmd.Process.Pid
	// The child has its copies; closing ours lets the readers see EOF when it exits.
	p[0][0].Close()
	p[1][1].Close()
	p[2][1].Close()
	go func() {
		// A hook need not read its input: EPIPE here is not an error.
		io.WriteString(p[0][1], inv.Stdin)
		p[0][1].Close()
	}()
	var stdout, stderr capWriter
	var readers sync.WaitGroup
	for _, c := range []struct {
		r *os.File
		w *capWriter
	}{{p[1][0], &stdout}, {p[2][0], &stderr}} {
		readers.Add(1)
		go func() { defer readers.Done(); io.Copy(c.w, c.r) }()
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	timer := time.NewTimer(run.Timeout)
	defer timer.Stop()
	var waitErr error
	select {
	case waitErr = <-exited:
	case <-ctx.Done():
		stopGroup(pgid, exited)
		syscall.Kill(-pgid, syscall.SIGKILL)
		return ctx.Err()
	case <-timer.C:
		run.TimedOut = true
		waitErr = stopGroup(pgid, exited)
	}
	syscall.Kill(-pgid, syscall.SIGKILL) // background children of the hook
	drained := make(chan struct{})
	go func() { readers.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(readerGrace):
		p[1][0].Close()
		p[2][0].Close()
		<-drained
	}
	run.ExitCode = exitCode(waitErr)
	run.Stdout, run.StdoutBytes = stdout.text("stdout"), stdout.n
	run.Stderr, run.StderrBytes = stderr.text("stderr"), stderr.n
	return nil
}

// capWriter keeps the first hooks.OutputCap bytes written and counts the rest, so a
// hook printing gigabytes costs neither memory nor history.
type capWriter struct {
	mu  sync.Mutex
	buf []byte
	n   int64
}

func (w *capWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if room := hooks.OutputCap - len(w.buf); room > 0 {
		w.buf = append(w.buf, b[:min(room, len(b))]...)
	}
	w.n += int64(len(b))
	return len(b), nil
}

// text is what was kept, as valid UTF-8, with a note when the output was cut.
func (w *capWriter) text(name string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := strings.ToValidUTF8(string(w.buf), "\uFFFD")
	if w.n > int64(len(w.buf)) {
		s += fmt.Sprintf("\n… [hook %s truncated: %d bytes printed, the first %d kept]", name, w.n, len(w.buf))
	}
	return s
}
