package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	// Files are open files the process inherits as descriptors 3, 4, …
	// (exec.Cmd.ExtraFiles): the seccomp filter bwrap reads. The caller closes
	// them once the process has started.
	Files []*os.File
}

// Request is a command to confine and how.
type Request struct {
	Cmd Command
	// ReadOnly asks for the read-only sandbox of commands that run without
	// approval because they were classified read-only: nothing is writable
	// (TMPDIR is private and vanishes with the command), of Settings only
	// Filesystem.DenyRead applies.
	ReadOnly bool
	// Settings are the session's sandbox settings; nil: none.
	Settings *Settings
	// Tmp is a private directory for TMPDIR: writable in the write sandbox, and
	// under the Landlock fallback of the read-only one (bubblewrap gives that one
	// an empty tmpfs /tmp instead).
	Tmp string
	// Dirs are permissions.additionalDirectories: visible like the working
	// directory, their control files guarded where they are writable.
	Dirs []string
	// Hide are further paths to hide: the worker's state directory.
	Hide []string
}

// Confined is a confined command, ready to start.
type Confined struct {
	Command
	// Notes are what the result should tell the model (a missing allowWrite
	// path, no network for allowedDomains, the Landlock fallback).
	Notes   []string
	release []func()
}

// Release undoes what confining needed once the process has ended (the
// placeholders of missing control files) and closes Files if still open.
func (c *Confined) Release() {
	for _, f := range c.Files {
		f.Close()
	}
	for _, r := range c.release {
		r()
	}
	c.release = nil
}

// Launcher confines commands in bubblewrap, or with Landlock where bubblewrap
// cannot start. It checks once, on first use, what this machine has. The zero
// value is ready.
type Launcher struct {
	// DisableLandlock turns the Landlock fallback off: where bubblewrap cannot
	// start, Wrap fails with *Unavailable.
	DisableLandlock bool
	noBwrap         bool // tests of the fallback
	once            sync.Once
	bwrap           string
	err             error
	hidden          []string // credentials (credentials.go), found once
}

// probe finds bwrap and runs it once with the namespaces and the seccomp filter
// Wrap uses. It also makes this process undumpable (procguard.go).
func (l *Launcher) probe() error {
	l.once.Do(func() {
		protectProcess()
		l.hidden = credentials(homeDir(), os.Environ())
		if l.noBwrap {
			l.err = &Unavailable{"bubblewrap is switched off"}
			return
		}
		path, err := exec.LookPath("bwrap")
		if err != nil {
			l.err = &Unavailable{"bubblewrap (bwrap) is not installed; install it (Debian: apt-get install bubblewrap)"}
			return
		}
		filter, err := seccompFile(noUnixSockets)
		if err != nil {
			l.err = &Unavailable{err.Error()}
			return
		}
		defer filter.Close()
		var stderr bytes.Buffer
		c := exec.Command(path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--new-session",
			"--cap-drop", "ALL", "--seccomp", "3", "true")
		c.Stderr, c.ExtraFiles = &stderr, []*os.File{filter}
		if err := c.Run(); err != nil {
			l.err = &Unavailable{fmt.Sprintf("bubblewrap cannot create its namespaces here (%v: %s); in a container, allow unprivileged user namespaces or run with CAP_SYS_ADMIN",
				err, strings.TrimSpace(stderr.String()))}
			return
		}
		l.bwrap = path
	})
	return l.err
}

// Wrap returns r.Cmd confined.
//
// The write sandbox (r.ReadOnly false): the whole filesystem read-only except
// the working directory, Tmp (its TMPDIR) and filesystem.allowWrite;
// filesystem.denyWrite read-only even there; the control files of the working
// directory and of Dirs read-only whether they exist or not (control.go).
//
// The read-only sandbox: the whole filesystem read-only, the working directory
// and Dirs included; an empty private /tmp.
//
// Both: filesystem.denyRead, Hide and the user's credentials (credentials.go)
// replaced by empty read-only ones; no network; no Unix socket, filesystem or
// abstract (seccomp.go); their own PID namespace, so that the worker's
// processes are out of sight and every process the command starts, setsid or
// not, is confined and killed when it ends; a new session.
//
// Where bubblewrap cannot start, Landlock confines the command instead
// (landlock.go) and, in the write sandbox, a note says why. The error is
// *Unavailable when neither can. The caller calls Release once the process ended.
func (l *Launcher) Wrap(r Request) (*Confined, error) {
	if err := l.probe(); err != nil {
		if l.DisableLandlock {
			return nil, err
		}
		return l.wrapLandlock(r, err.Error())
	}
	s := r.Settings
	if s == nil {
		s = &Settings{}
	}
	cmd := r.Cmd
	b := &bwrapArgs{}
	// No capability inside, whoever the worker runs as: a root worker's command
	// would otherwise keep CAP_SYS_ADMIN and remount / writable (issue 40).
	b.add("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--new-session",
		"--cap-drop", "ALL")
	var writable, notes []string
	visible := append([]string{cmd.Dir}, r.Dirs...)
	if r.ReadOnly {
		b.add("--size", tmpfsSize, "--tmpfs", "/tmp")
		visible = withRepositories(visible)
	} else {
		for i, p := range append([]string{cmd.Dir, r.Tmp}, s.Filesystem.AllowWrite...) {
			if _, err := os.Stat(p); err != nil {
				if i >= 2 {
					notes = append(notes, fmt.Sprintf("sandbox: filesystem.allowWrite %s does not exist; it is not writable", p))
				}
				continue
			}
			writable = append(writable, p)
		}
	}
	roots := append(slices.Clone(writable), visible...)
	hidden := slices.Concat(r.Hide, s.Filesystem.DenyRead, l.hidden)
	// Hidden first, then the roots on top (a working directory inside a hidden
	// directory or /tmp stays visible), then what is hidden inside the roots.
	inside := func(p string) bool {
		return slices.ContainsFunc(roots, func(root string) bool { return within(p, root) })
	}
	for _, p := range hidden {
		if !inside(p) && !(r.ReadOnly && within(p, "/tmp")) { // the private /tmp hides those already
			b.hide(p)
		}
	}
	for _, p := range writable {
		b.add("--bind", p, p)
	}
	for _, p := range visible {
		if r.ReadOnly || !slices.ContainsFunc(writable, func(w string) bool { return within(p, w) }) {
			b.addIfExists("--ro-bind", p)
		}
	}
	for _, p := range hidden {
		if inside(p) {
			b.hide(p)
		}
	}
	if !r.ReadOnly {
		for _, p := range s.Filesystem.DenyWrite {
			b.addIfExists("--ro-bind", p)
		}
		for _, p := range visible {
			if slices.ContainsFunc(writable, func(w string) bool { return within(p, w) }) {
				if err := b.guard(p); err != nil {
					b.undo()
					return nil, err
				}
			}
		}
	}
	if len(s.Network.AllowedDomains) > 0 && !r.ReadOnly {
		notes = append(notes, "sandbox: the command had no network: network.allowedDomains ("+strings.Join(s.Network.AllowedDomains, ", ")+
			") needs a filtering proxy, which toolpipe does not have yet; run it with dangerouslyDisableSandbox (if allowUnsandboxedCommands allows) or list it in excludedCommands")
	}
	if len(s.Network.AllowUnixSockets) > 0 && !s.UnixSocketsAllowed() && !r.ReadOnly {
		notes = append(notes, "sandbox: network.allowUnixSockets is ignored on Linux, as in Claude Code (a seccomp filter cannot tell socket paths apart); "+
			"Unix sockets stay blocked unless network.allowAllUnixSockets is true")
	}
	policy := noUnixSockets
	if s.UnixSocketsAllowed() && !r.ReadOnly {
		policy = anySocket
	}
	filter, err := seccompFile(policy)
	if err != nil {
		b.undo()
		return nil, &Unavailable{err.Error()}
	}
	for _, p := range b.tmpfs {
		b.add("--remount-ro", p)
	}
	b.add("--seccomp", "3", "--chdir", cmd.Dir, "--", cmd.Path)
	b.add(cmd.Args...)
	tmp := r.Tmp
	if r.ReadOnly {
		tmp = "/tmp"
	}
	return &Confined{Command: Command{Path: l.bwrap, Args: b.args, Dir: cmd.Dir, Env: withTmp(cmd.Env, tmp), Files: []*os.File{filter}},
		Notes: notes, release: b.release}, nil
}

// withRepositories adds to dirs the git repositories that hold one of them
// under /tmp: the read-only sandbox's private /tmp would hide a repository's
// root (and git with it) from a working directory in a subdirectory of it.
// Read-only git may read the whole repository anyway.
func withRepositories(dirs []string) []string {
	out := slices.Clone(dirs)
	for _, d := range dirs {
		for p := filepath.Dir(d); within(p, "/tmp") && p != "/tmp"; p = filepath.Dir(p) {
			if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// tmpfsSize bounds the private /tmp of the read-only sandbox.
const tmpfsSize = "67108864" // 64 MiB

// bwrapArgs collects bwrap's arguments and what to undo after the command.
type bwrapArgs struct {
	args    []string
	tmpfs   []string // hidden directories, remounted read-only at the end
	release []func()
}

func (b *bwrapArgs) add(a ...string) { b.args = append(b.args, a...) }

func (b *bwrapArgs) addIfExists(op, p string) {
	if _, err := os.Stat(p); err == nil {
		b.add(op, p, p)
	}
}

// hide replaces p by an empty directory or file, read-only.
func (b *bwrapArgs) hide(p string) {
	switch fi, err := os.Stat(p); {
	case err != nil:
	case fi.IsDir():
		b.add("--tmpfs", p)
		b.tmpfs = append(b.tmpfs, p)
	default:
		b.add("--ro-bind", "/dev/null", p)
	}
}

func (b *bwrapArgs) undo() {
	for _, r := range b.release {
		r()
	}
}

func withTmp(env []string, tmp string) []string {
	if env == nil {
		env = os.Environ()
	}
	return append(withoutVar(env, "TMPDIR"), "TMPDIR="+tmp)
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
