package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// The Landlock fallback confines a command where bubblewrap cannot start (no user
// namespaces in a container, no bwrap). Landlock restricts the process that asks
// and everything it starts, so the command is started through the worker's own
// binary: Wrap returns "<worker> landlockArg SPEC PROGRAM ARGS...", and this
// package's init, seeing landlockArg, restricts itself as SPEC says and execs the
// program. Every binary that links the sandbox package (the worker, the starter,
// test binaries) can therefore act as the launcher.
const landlockArg = "__toolpipe_sandbox_landlock__"

// landlockSpec is what the launcher enforces.
type landlockSpec struct {
	Read    []string     `json:"read"`    // readable trees
	List    []string     `json:"list"`    // directories whose entries may be listed
	Write   []string     `json:"write"`   // readable and writable trees
	Sockets socketPolicy `json:"sockets"` // the seccomp filter
}

func init() {
	if len(os.Args) > 3 && os.Args[1] == landlockArg {
		os.Exit(landlockExec(os.Args[2], os.Args[3:]))
	}
}

// landlockExec restricts this process and execs argv; it returns only on
// failure. Landlock first (it sets no_new_privs), then the seccomp filter, then
// the capabilities, all on the thread that executes the command.
func landlockExec(spec string, argv []string) int {
	var s landlockSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox: bad landlock spec:", err)
		return 126
	}
	rules := []landlock.Rule{
		landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx").IgnoreIfMissing(),
	}
	for _, p := range s.Read {
		rules = append(rules, fsRule(p, false))
	}
	for _, p := range s.Write {
		rules = append(rules, fsRule(p, true))
	}
	for _, p := range s.List {
		rules = append(rules, landlock.PathAccess(landlock.AccessFSSet(llsys.AccessFSReadDir), p).IgnoreIfMissing())
	}
	// No network rules: with ABI 4 and later every TCP bind and connect is
	// denied; ABI 6 scopes abstract Unix sockets and signals to the sandbox (the
	// worker cannot be signalled).
	if err := landlock.V6.BestEffort().Restrict(rules...); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox: landlock:", err)
		return 126
	}
	if err := installSeccomp(s.Sockets); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox:", err)
		return 126
	}
	if err := dropCapabilities(); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox:", err)
		return 126
	}
	path := argv[0]
	err := syscall.Exec(path, argv, os.Environ())
	fmt.Fprintf(os.Stderr, "sandbox: exec %s: %v\n", path, err)
	return 127
}

func fsRule(p string, write bool) landlock.Rule {
	dir := isDir(p)
	switch {
	case write && dir:
		return landlock.RWDirs(p).IgnoreIfMissing()
	case write:
		return landlock.RWFiles(p).IgnoreIfMissing()
	case dir:
		return landlock.RODirs(p).IgnoreIfMissing()
	}
	return landlock.ROFiles(p).IgnoreIfMissing()
}

// landlockABI is the kernel's Landlock ABI version, 0 without Landlock.
func landlockABI() int {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
}

// wrapLandlock is Wrap's fallback. why is why bubblewrap could not be used.
//
// Landlock can: limit which trees are readable and writable (by path, with
// grants only: hidden paths are carved out of the readable tree), deny every
// TCP bind and connect (ABI 4), and keep abstract Unix sockets and signals
// inside the sandbox (ABI 6). With the seccomp filter no socket but netlink can
// be made at all. With the worker undumpable and the command's capabilities
// dropped (procguard.go), the worker's /proc entries stay closed.
//
// It cannot: give the command its own PID namespace (it sees every process and
// their command lines, and processes it starts that setsid away are not killed
// with it: runGroup's process group and the sweep do that), mount anything
// (no private /tmp: TMPDIR is Tmp), or let a writable directory refuse one name:
// a directory that holds a control file or a denyWrite path is not writable
// itself, only the entries it had when the command started (so no new file can
// be created at the top of the working directory or directly in .git).
func (l *Launcher) wrapLandlock(r Request, why string) (*Confined, error) {
	abi := landlockABI()
	if abi < 1 {
		return nil, &Unavailable{why + "; and the kernel has no Landlock to fall back on"}
	}
	self, err := os.Executable()
	if err != nil {
		return nil, &Unavailable{why + "; and the Landlock launcher (this program) cannot be found: " + err.Error()}
	}
	s := r.Settings
	if s == nil {
		s = &Settings{}
	}
	cmd := r.Cmd
	hidden := slices.Concat(r.Hide, s.Filesystem.DenyRead, l.hidden)
	visible := append([]string{cmd.Dir}, r.Dirs...)
	spec := landlockSpec{Sockets: netlinkOnly}
	// Readable: everything but the hidden trees, and the visible roots (a working
	// directory inside a hidden one stays visible) but what is hidden inside them.
	spec.Read, spec.List = carve([]string{"/"}, hidden)
	for _, v := range visible {
		read, list := carve([]string{v}, slices.DeleteFunc(slices.Clone(hidden), func(h string) bool { return within(v, h) }))
		spec.Read, spec.List = append(spec.Read, read...), append(spec.List, list...)
	}
	var notes []string
	if r.ReadOnly {
		spec.Write = []string{r.Tmp}
	} else {
		if s.UnixSocketsAllowed() {
			spec.Sockets = netlinkAndUnix
		}
		var locked []string
		for _, v := range visible {
			for _, p := range ControlPaths(v) {
				locked = append(locked, p)
				if t, err := filepath.EvalSymlinks(p); err == nil && t != p {
					locked = append(locked, t) // a link's target is a way in too
				}
			}
		}
		writable := append([]string{cmd.Dir}, s.Filesystem.AllowWrite...)
		// Tmp is granted whole: it is the command's own, also where it lies inside
		// the hidden state directory.
		spec.Write, _ = carve(writable, slices.Concat(hidden, s.Filesystem.DenyWrite, locked))
		spec.Write = append(spec.Write, r.Tmp)
		notes = append(notes, "sandbox: "+why+"; the command ran confined by Landlock instead (writes and hidden paths as configured, "+
			map[bool]string{true: "TCP blocked", false: "TCP blocked by seccomp only: the kernel's Landlock is older than ABI 4"}[abi >= 4]+
			", no Unix or UDP sockets, no separate process namespace)")
		if len(s.Network.AllowedDomains) > 0 {
			notes = append(notes, "sandbox: network.allowedDomains needs a filtering proxy, which toolpipe does not have yet; the command had no network")
		}
	}
	// The launcher itself must stay readable and executable.
	spec.Read = append(spec.Read, self)
	data, _ := json.Marshal(spec)
	return &Confined{Command: Command{Path: self, Args: append([]string{landlockArg, string(data), cmd.Path}, cmd.Args...), Dir: cmd.Dir,
		Env: withTmp(cmd.Env, r.Tmp)}, Notes: notes}, nil
}

// carve returns paths that cover the trees of grants except the trees of
// excepts: a grant holding an excepted path is replaced by its entries, all but
// the one leading to the excepted path, recursively. Landlock can only allow, so
// this is how a hidden path inside a readable tree is left out. split are the
// directories so replaced: the read-only rules let their entries be listed
// (names, not contents; also in the directories below them, the hidden ones
// included), so that ls still works in a working directory with a hidden .env.
func carve(grants, excepts []string) (out, split []string) {
	for _, g := range grants {
		carveOne(filepath.Clean(g), excepts, &out, &split)
	}
	return out, split
}

func carveOne(g string, excepts []string, out, split *[]string) {
	inside := false
	for _, e := range excepts {
		e = filepath.Clean(e)
		if within(g, e) {
			return // the whole grant is excepted
		}
		if within(e, g) {
			inside = true
		}
	}
	if !inside {
		*out = append(*out, g)
		return
	}
	entries, err := os.ReadDir(g)
	if err != nil {
		return // cannot be split: grant nothing rather than too much
	}
	*split = append(*split, g)
	for _, ent := range entries {
		carveOne(filepath.Join(g, ent.Name()), excepts, out, split)
	}
}
