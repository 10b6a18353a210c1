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
	Read  []string `json:"read"`  // readable trees
	Write []string `json:"write"` // readable and writable trees
}

func init() {
	if len(os.Args) > 3 && os.Args[1] == landlockArg {
		os.Exit(landlockExec(os.Args[2], os.Args[3:]))
	}
}

// landlockExec restricts this process and execs argv; it returns only on failure.
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
	// No network rules: with ABI 4 and later every TCP bind and connect is denied.
	if err := landlock.V6.BestEffort().Restrict(rules...); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox: landlock:", err)
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
func wrapLandlock(s *Settings, cmd Command, tmp string, why string, hide []string) (Command, []string, error) {
	abi := landlockABI()
	if abi < 1 {
		return Command{}, nil, &Unavailable{why + "; and the kernel has no Landlock to fall back on"}
	}
	self, err := os.Executable()
	if err != nil {
		return Command{}, nil, &Unavailable{why + "; and the Landlock launcher (this program) cannot be found: " + err.Error()}
	}
	hidden := append(slices.Clone(s.Filesystem.DenyRead), hide...)
	writable := []string{cmd.Dir, tmp}
	writable = append(writable, s.Filesystem.AllowWrite...)
	spec := landlockSpec{
		Read:  carve([]string{"/"}, hidden),
		Write: carve(writable, append(append(slices.Clone(hidden), s.Filesystem.DenyWrite...), protected(cmd.Dir)...)),
	}
	// The launcher itself must stay readable and executable.
	spec.Read = append(spec.Read, self)
	data, _ := json.Marshal(spec)
	notes := []string{"sandbox: " + why + "; the command ran confined by Landlock instead (writes and hidden paths as configured, " +
		map[bool]string{true: "TCP blocked", false: "network NOT restricted: the kernel's Landlock is older than ABI 4"}[abi >= 4] +
		", no separate process namespace)"}
	if len(s.Network.AllowedDomains) > 0 {
		notes = append(notes, "sandbox: network.allowedDomains needs a filtering proxy, which toolpipe does not have yet; the command had no TCP network")
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	return Command{Path: self, Args: append([]string{landlockArg, string(data), cmd.Path}, cmd.Args...), Dir: cmd.Dir,
		Env: append(withoutVar(cmd.Env, "TMPDIR"), "TMPDIR="+tmp)}, notes, nil
}

// carve returns paths that cover the trees of grants except the trees of
// excepts: a grant holding an excepted path is replaced by its entries, all but
// the one leading to the excepted path, recursively. Landlock can only allow, so
// this is how a hidden path inside a readable tree is left out.
func carve(grants, excepts []string) []string {
	var out []string
	for _, g := range grants {
		out = append(out, carveOne(filepath.Clean(g), excepts)...)
	}
	return out
}

func carveOne(g string, excepts []string) []string {
	inside := false
	for _, e := range excepts {
		e = filepath.Clean(e)
		if within(g, e) {
			return nil // the whole grant is excepted
		}
		if within(e, g) {
			inside = true
		}
	}
	if !inside {
		return []string{g}
	}
	entries, err := os.ReadDir(g)
	if err != nil {
		return nil // cannot be split: grant nothing rather than too much
	}
	var out []string
	for _, ent := range entries {
		out = append(out, carveOne(filepath.Join(g, ent.Name()), excepts)...)
	}
	return out
}
