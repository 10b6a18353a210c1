package activities

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolpipe/toolpipe/sandbox"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/tool/readonly"
	"github.com/toolpipe/toolpipe/toolenv"
)

// launcher starts sandboxed commands; it checks bubblewrap once per worker.
var launcher = &sandbox.Launcher{}

// bashRun is how one Bash command runs: its process and what the result must say
// besides the command's output.
type bashRun struct {
	spec procSpec
	// notes are appended to the result (the sandbox had no network, it could not
	// start and the command ran outside it).
	notes []string
	// refuse, when set, is the error result: the command must not run (it may
	// only run sandboxed and the sandbox cannot start).
	refuse string
	// cleanup removes the sandbox's private temporary directory.
	cleanup func()
}

// bashProcess builds how a Bash command runs: the environment without the
// worker's secrets (read-only commands also without programs git's config
// names), and the sandbox around it: the read-only one for a command that runs
// without approval only because it was classified read-only (whatever
// dangerouslyDisableSandbox says), the write sandbox when the call's settings
// ask for one. Every way of running a Bash command (the Bash activity,
// background shells) starts its process from this, so none escapes the
// environment or the sandbox.
func (a *Activities) bashProcess(call tool.Call, in tool.BashInput, timeout time.Duration, progress *tailer) bashRun {
	run := bashRun{
		spec: procSpec{path: "/bin/bash", args: []string{"-c", bashScript(in.Command)}, dir: call.Workdir,
			env: agentEnv(a.bashEnv(in.Command, call.Workdir), call.SessionID), timeout: timeout, progress: progress},
		cleanup: func() {},
	}
	if call.ReadOnlySandbox {
		if err := a.confine(call, &run, true); err == nil {
			return run
		}
		// No sandbox can start here: the classifier alone decides, as the worker
		// said when it started (SandboxNotice); the settings below still apply.
	}
	s := call.Sandbox
	if !s.Sandboxed(in.Command, in.DangerouslyDisableSandbox) {
		if call.SandboxOnly {
			run.refuse = "This command was allowed only to run in the sandbox, and it is not sandboxed; approval required."
		}
		return run
	}
	err := a.confine(call, &run, false)
	if err == nil {
		return run
	}
	var un *sandbox.Unavailable
	if !errors.As(err, &un) {
		err = &sandbox.Unavailable{Reason: err.Error()}
	}
	switch {
	case s.MustSandbox():
		run.refuse = fmt.Sprintf("Not run: %v, and sandbox.failIfUnavailable is set.", err)
	case call.SandboxOnly:
		run.refuse = fmt.Sprintf("Not run: %v; the command was allowed only because it would run sandboxed (autoAllowBashIfSandboxed), so it needs approval to run outside it.", err)
	default:
		run.notes = append(run.notes, fmt.Sprintf("Ran outside the sandbox: %v (sandbox.failIfUnavailable is off).", err))
	}
	return run
}

// confine wraps run's process in the read-only or the write sandbox, with a
// private temporary directory and the worker's state directory hidden.
func (a *Activities) confine(call tool.Call, run *bashRun, readOnly bool) error {
	os.MkdirAll(a.scratch(call), 0o700)
	tmp, err := os.MkdirTemp(a.scratch(call), "sandbox-tmp-*")
	if err != nil {
		return err
	}
	var dirs []string
	if call.Scope != nil {
		dirs = call.Scope.Dirs
	}
	c, err := launcher.Wrap(sandbox.Request{ReadOnly: readOnly, Settings: call.Sandbox, Tmp: tmp, Dirs: dirs, Hide: []string{a.cfg.StateDir},
		Cmd: sandbox.Command{Path: run.spec.path, Args: run.spec.args, Dir: run.spec.dir, Env: run.spec.env}})
	if err != nil {
		os.RemoveAll(tmp)
		return err
	}
	run.spec.path, run.spec.args, run.spec.env, run.spec.files = c.Path, c.Args, c.Env, c.Files
	run.notes = c.Notes
	run.cleanup = func() {
		c.Release()
		os.RemoveAll(tmp)
	}
	return nil
}

// SandboxNotice is what the worker says once at start about how it confines the
// Bash commands that run without approval, "" when bubblewrap does it.
func SandboxNotice() string { return launcher.Status().Notice() }

// SandboxStatus is one line saying how this machine confines them, for
// `agent status`.
func SandboxStatus() string { return launcher.Status().String() }

// bashEnv is the environment of a Bash command: the worker's without its secrets
// and, for a command classified read-only (which runs without approval), with git
// unable to run programs its config names (toolenv.ReadOnly).
func (a *Activities) bashEnv(command, dir string) []string {
	env := a.cfg.Env.Environ(os.Environ())
	switch {
	case !readonly.IsReadOnly(command):
	case strings.Contains(command, "git"):
		env = toolenv.ReadOnlyIn(env, dir) // the repository's own git drivers switched off too
	default:
		env = toolenv.ReadOnly(env)
	}
	return env
}

// scratch is where a session's in-flight tool outputs are written.
func (a *Activities) scratch(call tool.Call) string {
	return filepath.Join(a.cfg.StateDir, safeName(call.SessionID), "scratch")
}
