package readonly

import (
	"bufio"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/toolenv"
)

// The differential fuzzer's sandbox: a command is run by real bash inside a
// throw-away bubblewrap (the whole file system read-only and its sockets
// hidden, no network, its own PID namespace), in a scratch copy of a tree with
// hostile file names, under strace, with the environment a read-only command
// gets (toolenv.ReadOnly). It reports what the command did that a read-only
// command must not: run a program off the allowlist (the canary among them),
// try to write, create, delete, rename or change any file, or leave the
// scratch tree changed.

// hostileNames are files of the scratch tree named like options and code,
// which a glob or a split word can put on a command line (Write can create
// them in acceptEdits).
var hostileNames = []string{"-exec", "+", "-delete", "--files0-from=list", "-v", "a[$(canary)]", "x -delete",
	"1;w pwned", "--pre=canary", "--pre=sh", "-o", "--output=pwned", "-fprint", "-i", "-e", "-f", "-R", "-L", "--follow",
	"-T", "--compress-program=canary", "-okdir", "-fls", "-ok", "-execdir", ";", "e canary", "1e canary",
	"--to-command=canary", "-C", "-c", "--open-files-in-pager=canary", "{}", "-z", "--sandbox", "canary"}

// fuzzTree is the template the scratch trees are copied from, made once.
type fuzzTree struct {
	dir, outside string
	bin          string          // holds canary, first on PATH
	allowed      map[string]bool // programs a read-only command may run
	bwrap, trace string
}

// sandboxTree makes the template in a directory of t's (removed after it),
// or skips t when bubblewrap or strace is missing or cannot start.
func sandboxTree(t testing.TB) *fuzzTree {
	t.Helper()
	ft, err := makeFuzzTree(t.TempDir())
	if err != nil {
		t.Skipf("differential fuzzing needs bubblewrap and strace: %v", err)
	}
	return ft
}

func makeFuzzTree(root string) (*fuzzTree, error) {
	ft := &fuzzTree{allowed: map[string]bool{}}
	var err error
	for _, p := range []*struct {
		name string
		dst  *string
	}{{"bwrap", &ft.bwrap}, {"strace", &ft.trace}} {
		if *p.dst, err = exec.LookPath(p.name); err != nil {
			return nil, err
		}
	}
	// bubblewrap may be installed but unusable (no namespaces in a container).
	if out, err := exec.Command(ft.bwrap, "--ro-bind", "/", "/", "--unshare-all", "true").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("bwrap does not start: %v: %s", err, out)
	}
	ft.dir, ft.outside, ft.bin = filepath.Join(root, "work"), filepath.Join(root, "outside"), filepath.Join(root, "bin")
	for _, d := range []string{ft.dir, ft.outside, ft.bin, filepath.Join(ft.dir, "d", "e"), filepath.Join(ft.dir, "ng", "objects"), filepath.Join(ft.dir, "ng", "refs", "heads")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	canary := "#!/bin/sh\necho ran >> /tmp/CANARY-RAN\n"
	if err := os.WriteFile(filepath.Join(ft.bin, "canary"), []byte(canary), 0o755); err != nil {
		return nil, err
	}
	files := map[string]string{
		"x.sh": canary, "f": "a\nb\na\n", "x": "x\n", "in": "in\n", "README.md": "read me\n",
		"list": "f\x00x\x00../outside/secret\x00", "pats": "a\n", ".env": "KEY=secret\n", "d/g.go": "package g\n",
		"d/e/h.txt": "h\n", "f.json": `{"a": 1}` + "\n", "script.sed": "w pwned\n",
		"ng/HEAD": "ref: refs/heads/main\n", "ng/config": "[core]\n\trepositoryformatversion = 0\n\tfsmonitor = canary\n",
		"../outside/secret": "secret\n",
	}
	for _, n := range hostileNames {
		files[n] = canary // run as a script, each is the canary
	}
	for name, content := range files {
		mode := fs.FileMode(0o644)
		if content == canary {
			mode = 0o755
		}
		if err := os.WriteFile(filepath.Join(ft.dir, name), []byte(content), mode); err != nil {
			return nil, err
		}
	}
	if err := os.Symlink(ft.outside, filepath.Join(ft.dir, "l")); err != nil {
		return nil, err
	}
	// A repository of its own whose config names programs: read-only git runs
	// none of them (toolenv.ReadOnly overrides them).
	git := func(args ...string) error {
		cmd := exec.Command("git", append([]string{"-c", "user.name=f", "-c", "user.email=f@x", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = ft.dir
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + root, "GIT_CONFIG_NOSYSTEM=1"}
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v: %s", args, err, out)
		}
		return nil
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "f", "x", "README.md", "d"}, {"commit", "-qm", "one"},
		{"commit", "-q", "--allow-empty", "-m", "two"},
		{"config", "core.pager", "canary"}, {"config", "core.fsmonitor", "canary"}, {"config", "gpg.program", "canary"},
		{"config", "log.showSignature", "true"}, {"config", "core.hooksPath", ".git/hooks"}} {
		if err := git(args...); err != nil {
			return nil, err
		}
	}
	os.RemoveAll(filepath.Join(ft.dir, ".git", "hooks")) // the samples: fewer files to copy for each run
	os.Mkdir(filepath.Join(ft.dir, ".git", "hooks"), 0o755)
	for _, hook := range []string{"post-index-change", "post-checkout", "reference-transaction"} {
		os.WriteFile(filepath.Join(ft.dir, ".git", "hooks", hook), []byte(canary), 0o755)
	}
	// What a read-only command may run: the allowlist's programs (bash itself
	// only as the shell that runs the command).
	for name := range programs {
		if p, err := exec.LookPath(name); err == nil {
			ft.allow(p)
		}
	}
	return ft, nil
}

func (ft *fuzzTree) allow(p string) {
	ft.allowed[p] = true
	if r, err := filepath.EvalSymlinks(p); err == nil {
		ft.allowed[r] = true
	}
}

// run executes command in a fresh copy of the tree and returns what it did
// that a read-only command must not, "" if nothing.
func (ft *fuzzTree) run(t testing.TB, command string) string {
	t.Helper()
	// The scratch directory is the sandbox's /tmp: w is the working tree,
	// home the home directory, bin the canary's directory (first on PATH),
	// log strace's (not part of the snapshot).
	scratch := t.TempDir()
	work, logDir, bin := filepath.Join(scratch, "w"), filepath.Join(scratch, "log"), filepath.Join(scratch, "bin")
	for _, d := range []string{filepath.Join(scratch, "home"), logDir, bin} {
		os.Mkdir(d, 0o755)
	}
	if err := copyTree(ft.dir, work); err != nil {
		return "cannot copy the tree: " + err.Error()
	}
	before := snapshot(scratch, logDir, bin)
	env := toolenv.ReadOnly([]string{"PATH=/tmp/bin:/usr/local/bin:/usr/bin:/bin", "HOME=/tmp/home", "LANG=C.UTF-8", "TMPDIR=/tmp"})
	args := []string{"--die-with-parent", "--unshare-all", "--new-session", "--ro-bind", "/", "/",
		"--tmpfs", "/run", "--dev", "/dev", "--proc", "/proc", "--bind", scratch, "/tmp",
		"--ro-bind", ft.bin, "/tmp/bin", "--chdir", "/tmp/w", "--clearenv"}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		args = append(args, "--setenv", k, v)
	}
	args = append(args, ft.trace, "-f", "-qq", "-s", "4096", "-o", "/tmp/log/trace", "-e", "trace="+tracedCalls,
		"/bin/bash", "-c", command)
	// Long enough for the tree; a command that waits (tail -f, sleep) is
	// killed, and what it did until then still counts.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, ft.bwrap, args...)
	cmd.WaitDelay = time.Second
	_ = cmd.Run() // a failing command is fine; what it did is what counts
	var found []string
	found = append(found, ft.traceViolations(filepath.Join(logDir, "trace"))...)
	after := snapshot(scratch, logDir, bin)
	for p, h := range after {
		if before[p] != h && p != filepath.Join(work, ".git", "index") {
			found = append(found, "changed or created "+strings.TrimPrefix(p, scratch))
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			found = append(found, "deleted "+strings.TrimPrefix(p, scratch))
		}
	}
	slices.Sort(found)
	return strings.Join(slices.Compact(found), "; ")
}

// tracedCalls are the system calls that run programs or change files.
const tracedCalls = "execve,execveat,open,openat,openat2,creat,unlink,unlinkat,rename,renameat,renameat2," +
	"mkdir,mkdirat,rmdir,link,linkat,symlink,symlinkat,truncate,chmod,fchmodat,chown,fchownat,lchown,mknod,mknodat,utimes,utimensat"

var (
	traceLine = regexp.MustCompile(`^\d+ +(\w+)\((.*)\) += (-?\d+|\?)`)
	quoted    = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
)

// traceViolations reads strace's log: a program that ran and is not allowed,
// and any attempt to change a file, whether or not it succeeded (the file
// system is read-only outside the scratch tree, so a write there fails, but a
// read-only command must not even try). Bash's here-document files and the
// devices that are not files are fine.
func (ft *fuzzTree) traceViolations(log string) []string {
	f, err := os.Open(log)
	if err != nil {
		return []string{"no trace: " + err.Error()}
	}
	defer f.Close()
	var found []string
	first := true
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := traceLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		call, argsText, ret := m[1], m[2], m[3]
		names := quoted.FindAllStringSubmatch(argsText, -1)
		path := ""
		if len(names) > 0 {
			path = names[0][1]
		}
		switch call {
		case "execve", "execveat":
			if ret != "0" {
				continue
			}
			if first && path == "/bin/bash" {
				first = false
				continue
			}
			if !ft.allowed[path] {
				if r, err := filepath.EvalSymlinks(path); err != nil || !strings.HasPrefix(path, "/") || !ft.allowed[r] {
					found = append(found, "ran "+path)
				}
			}
		case "open", "openat", "openat2", "creat":
			if call != "creat" && !strings.Contains(argsText, "O_WRONLY") && !strings.Contains(argsText, "O_RDWR") &&
				!strings.Contains(argsText, "O_CREAT") && !strings.Contains(argsText, "O_TRUNC") {
				continue
			}
			if harmlessWrite(path) {
				continue
			}
			found = append(found, "opened for writing "+path)
		case "rename", "renameat", "renameat2":
			if len(names) == 2 && names[0][1] == "/tmp/w/.git/index.lock" && names[1][1] == "/tmp/w/.git/index" {
				continue // see gitIndex
			}
			found = append(found, call+" "+path)
		default:
			found = append(found, call+" "+path)
		}
	}
	return found
}

// gitIndex is git's cache of file metadata, which git diff rewrites (through
// index.lock) even with GIT_OPTIONAL_LOCKS=0: it changes no content and runs
// nothing, so the fuzzer allows it.
const gitIndex = "/tmp/w/.git/index"

func harmlessWrite(p string) bool {
	switch {
	case p == gitIndex+".lock":
		return true
	case p == "/dev/null" || p == "/dev/tty" || p == "/dev/stdout" || p == "/dev/stderr",
		strings.HasPrefix(p, "/dev/fd/"), strings.HasPrefix(p, "/proc/self/fd/"),
		strings.HasPrefix(p, "/tmp/sh-thd"): // bash's here-documents (TMPDIR)
		return true
	}
	return false
}

// snapshot hashes every file under root (but skip) with its mode.
func snapshot(root string, skip ...string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || slices.Contains(skip, p) {
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		h := fmt.Sprintf("%v", info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			h += " -> " + target
		case info.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			h += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		out[p] = h
		return nil
	})
	return out
}

// copyTree copies the template, links as links.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(target, info.Mode().Perm())
		case info.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm())
	})
}
