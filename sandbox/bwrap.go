package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// Unavailable is the error of Wrap when no sandbox can start here; Reason says
// why and what to do.
type Unavailable struct{ Reason string }

func (u *Unavailable) Error() string { return "the sandbox cannot start: " + u.Reason }

// Command is a process to start.
type Command struct {
	Path string
	Args []string
	Dir  string
	Env  []string
}

// Launcher wraps commands in bubblewrap. It checks once, on first use, that
// bubblewrap is installed and can create its namespaces here. The zero value is
// ready.
type Launcher struct {
	// DisableLandlock turns the Landlock fallback off: where bubblewrap cannot
	// start, Wrap fails with *Unavailable.
	DisableLandlock bool
	noBwrap         bool // tests of the fallback
	once            sync.Once
	bwrap           string
	err             error
}

// probe finds bwrap and runs it once with the namespaces Wrap uses.
func (l *Launcher) probe() error {
	l.once.Do(func() {
		if l.noBwrap {
			l.err = &Unavailable{"bubblewrap is switched off"}
			return
		}
		path, err := exec.LookPath("bwrap")
		if err != nil {
			l.err = &Unavailable{"bubblewrap (bwrap) is not installed; install it (Debian: apt-get install bubblewrap)"}
			return
		}
		var stderr bytes.Buffer
		c := exec.Command(path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--new-session", "true")
		c.Stderr = &stderr
		if err := c.Run(); err != nil {
			l.err = &Unavailable{fmt.Sprintf("bubblewrap cannot create its namespaces here (%v: %s); in a container, allow unprivileged user namespaces or run with CAP_SYS_ADMIN",
				err, strings.TrimSpace(stderr.String()))}
			return
		}
		l.bwrap = path
	})
	return l.err
}

// Wrap returns cmd confined by s: the whole filesystem read-only except cmd.Dir,
// tmp (its TMPDIR) and filesystem.allowWrite; filesystem.denyWrite read-only even
// there; filesystem.denyRead and hide (the worker's state directory) replaced by
// empty ones; no network; its own PID namespace, so that every process it starts,
// setsid or not, is confined and killed when it ends. notes are what the result
// should tell the model (a missing allowWrite path, no network for
// allowedDomains). Where bubblewrap cannot start, Landlock confines the command
// instead (see landlock.go) and a note says why. The error is *Unavailable when
// neither can.
func (l *Launcher) Wrap(s *Settings, cmd Command, tmp string, hide ...string) (Command, []string, error) {
	if err := l.probe(); err != nil {
		if l.DisableLandlock {
			return Command{}, nil, err
		}
		return wrapLandlock(s, cmd, tmp, err.Error(), hide)
	}
	var notes []string
	args := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
		"--unshare-all", "--die-with-parent", "--new-session"}
	// Hidden first, so that a working directory inside a hidden one stays visible.
	for _, p := range hide {
		if isDir(p) && !within(cmd.Dir, p) {
			args = append(args, "--tmpfs", p)
		}
	}
	writable := append([]string{cmd.Dir, tmp}, s.Filesystem.AllowWrite...)
	for i, p := range writable {
		if _, err := os.Stat(p); err != nil {
			if i >= 2 {
				notes = append(notes, fmt.Sprintf("sandbox: filesystem.allowWrite %s does not exist; it is not writable", p))
			}
			continue
		}
		args = append(args, "--bind", p, p)
	}
	for _, p := range append(protected(cmd.Dir), s.Filesystem.DenyWrite...) {
		if _, err := os.Stat(p); err == nil {
			args = append(args, "--ro-bind", p, p)
		}
	}
	for _, p := range s.Filesystem.DenyRead {
		switch fi, err := os.Stat(p); {
		case err != nil:
		case fi.IsDir():
			args = append(args, "--tmpfs", p, "--remount-ro", p)
		default:
			args = append(args, "--ro-bind", "/dev/null", p)
		}
	}
	if len(s.Network.AllowedDomains) > 0 {
		notes = append(notes, "sandbox: the command had no network: network.allowedDomains ("+strings.Join(s.Network.AllowedDomains, ", ")+
			") needs a filtering proxy, which toolpipe does not have yet; run it with dangerouslyDisableSandbox (if allowUnsandboxedCommands allows) or list it in excludedCommands")
	}
	args = append(args, "--chdir", cmd.Dir, "--", cmd.Path)
	args = append(args, cmd.Args...)
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	env := append(withoutVar(cmd.Env, "TMPDIR"), "TMPDIR="+tmp)
	return Command{Path: l.bwrap, Args: args, Dir: cmd.Dir, Env: env}, notes, nil
}

// protected are the files in the working directory that steer what later runs
// outside the sandbox: git hooks and config (a hook runs on the next approved
// git commit), Claude Code's settings (permission rules, hooks) and .mcp.json
// (servers the worker starts). A sandboxed command may read them, not change
// them.
func protected(dir string) []string {
	return []string{filepath.Join(dir, ".git", "hooks"), filepath.Join(dir, ".git", "config"),
		filepath.Join(dir, ".claude"), filepath.Join(dir, ".mcp.json"), filepath.Join(dir, ".gitmodules")}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

func withoutVar(env []string, name string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
