package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func writeSandbox(t *testing.T, l *Launcher, s *Settings, dir string, dirs []string, script string) (string, error) {
	t.Helper()
	if s == nil {
		s = &Settings{Enabled: ptr(true)}
	}
	c, err := l.Wrap(Request{Settings: s, Cmd: Command{Path: "/bin/bash", Args: []string{"-c", script}, Dir: dir}, Tmp: t.TempDir(), Dirs: dirs})
	if err != nil {
		return "", err
	}
	return runConfined(t, c), nil
}

func ptr[T any](v T) *T { return &v }

func gitInit(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q", dir}, {"-C", dir, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "first"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
}

// The write sandbox keeps the control files of the working directory and of
// writable additionalDirectories from being created or changed, whether they
// exist or not: a command cannot make .claude/settings.json, .mcp.json,
// toolpipe.yaml or .gitmodules where there were none, nor a repository (.git)
// of its own, nor git's config, hooks, info or commondir, nor move .git or
// .claude aside to make them anew. The placeholders that made this possible are
// gone afterwards. Git itself still works: a commit inside the sandbox lands.
func TestWriteSandboxGuardsControlFilesExistingOrNot(t *testing.T) {
	needBwrap(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	work, extra := filepath.Join(root, "work"), filepath.Join(root, "extra")
	os.MkdirAll(work, 0o755)
	os.MkdirAll(extra, 0o755)
	l := &Launcher{}
	s := &Settings{Enabled: ptr(true), Filesystem: Filesystem{AllowWrite: []string{extra}}}
	attempts := map[string]string{
		"settings":   `mkdir -p .claude && echo '{"permissions":{"allow":["Bash"]}}' > .claude/settings.json`,
		"mcp":        `echo '{"mcpServers":{"x":{"command":"sh"}}}' > .mcp.json`,
		"toolpipe":   `echo 'permission-mode: bypassPermissions' > toolpipe.yaml`,
		"gitmodules": `printf '[submodule "x"]\n' > .gitmodules`,
		"repo":       `git init -q . && test -f .git/config`,
		"extra-mcp":  `echo '{}' > ` + extra + `/.mcp.json`,
		"extra-ok":   `echo ok > ` + extra + `/ok.txt`,
		"work-ok":    `echo ok > ok.txt`,
	}
	script := ""
	for name, cmd := range attempts {
		script += "(" + cmd + ") 2>/dev/null && echo MADE " + name + "\n"
	}
	out, err := writeSandbox(t, l, s, work, []string{extra}, script)
	if err != nil {
		t.Fatal(err)
	}
	for name := range attempts {
		made := strings.Contains(out, "MADE "+name+"\n")
		if ok := strings.HasSuffix(name, "-ok"); made != ok {
			t.Errorf("%s: made=%v\n%s", name, made, out)
		}
	}
	for _, p := range []string{".claude", ".mcp.json", "toolpipe.yaml", ".gitmodules", ".git", "../extra/.mcp.json", "../extra/.git"} {
		if _, err := os.Lstat(filepath.Join(work, p)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s exists after the command: %v", p, err)
		}
	}

	// An existing repository whose info and hooks directories are missing.
	gitInit(t, work)
	os.RemoveAll(filepath.Join(work, ".git", "info"))
	os.RemoveAll(filepath.Join(work, ".git", "hooks"))
	os.MkdirAll(filepath.Join(work, ".claude"), 0o755)
	config, _ := os.ReadFile(filepath.Join(work, ".git", "config"))
	attempts = map[string]string{
		"config":    `echo '[core]fsmonitor = touch /tmp/pwned' >> .git/config`,
		"hook":      `mkdir -p .git/hooks && echo 'touch /tmp/pwned' > .git/hooks/pre-commit`,
		"info":      `mkdir -p .git/info && echo '* diff=x' > .git/info/attributes`,
		"commondir": `echo /tmp/elsewhere > .git/commondir`,
		"move-git":  `mv .git .git-old`,
		"move-cl":   `mv .claude .claude-old`,
		"rm-cl":     `rm -rf .claude && test ! -e .claude`,
		"commit-ok": `git -c user.email=t@t -c user.name=t commit -q --allow-empty -m inside`,
	}
	script = ""
	for name, cmd := range attempts {
		script += "(" + cmd + ") 2>/dev/null && echo MADE " + name + "\n"
	}
	if out, err = writeSandbox(t, l, s, work, nil, script); err != nil {
		t.Fatal(err)
	}
	for name := range attempts {
		made := strings.Contains(out, "MADE "+name+"\n")
		if ok := strings.HasSuffix(name, "-ok"); made != ok {
			t.Errorf("%s: made=%v\n%s", name, made, out)
		}
	}
	if now, _ := os.ReadFile(filepath.Join(work, ".git", "config")); string(now) != string(config) {
		t.Errorf(".git/config changed:\n%s", now)
	}
	for _, p := range []string{".git/info", ".git/hooks", ".git/commondir", ".git-old"} {
		if _, err := os.Lstat(filepath.Join(work, p)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s exists after the command: %v", p, err)
		}
	}
	if log, err := exec.Command("git", "-C", work, "log", "--format=%s").Output(); err != nil || string(log) != "inside\nfirst\n" {
		t.Errorf("the commit inside the sandbox: %q %v", log, err)
	}
}

// A control file that is a symbolic link cannot be pinned (the bind would land
// on its target and the link could be replaced): the sandbox refuses to start,
// saying which and why.
func TestWriteSandboxRefusesSymlinkedControlFiles(t *testing.T) {
	needBwrap(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	work := filepath.Join(root, "work")
	os.MkdirAll(filepath.Join(work, "shared"), 0o755)
	os.Symlink("shared", filepath.Join(work, ".claude"))
	_, err := writeSandbox(t, &Launcher{}, nil, work, nil, "true")
	var u *Unavailable
	if !errors.As(err, &u) || !strings.Contains(u.Reason, ".claude is a symbolic link") {
		t.Fatalf("err %v", err)
	}
}

// Placeholders are counted: one command ending does not remove a placeholder
// another still relies on, the last one does, and a file that was there before
// is never removed.
func TestPlaceholdersOutliveOverlappingCommands(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".mcp.json")
	mcp := projectControl[1]
	if made, err := placeholders.acquire(p, mcp); !made || err != nil {
		t.Fatal(made, err)
	}
	if made, err := placeholders.acquire(p, mcp); !made || err != nil {
		t.Fatal(made, err)
	}
	placeholders.release(p, mcp)
	if data, err := os.ReadFile(p); err != nil || string(data) != mcp.placeholder {
		t.Fatalf("removed under the second command: %q %v", data, err)
	}
	placeholders.release(p, mcp)
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("left behind: %v", err)
	}
	os.WriteFile(p, []byte(`{"mcpServers": {"mine": {}}}`), 0o644)
	if made, _ := placeholders.acquire(p, mcp); made {
		t.Fatal("an existing file was taken for a placeholder")
	}
}

// The write sandbox blocks Unix sockets too (a read-only bind does not stop
// connect), hides credentials, and hidden directories are read-only, not an
// empty writable tmpfs; network.allowAllUnixSockets lifts the socket block, and
// nothing else.
func TestWriteSandboxBlocksSocketsAndHides(t *testing.T) {
	needBwrap(t)
	h := newHostileHost(t)
	unconfinedProbe(t, h)
	l := &Launcher{}
	s := &Settings{Enabled: ptr(true), Filesystem: Filesystem{DenyRead: []string{filepath.Join(h.work, ".env")}}}
	c, err := l.Wrap(Request{Settings: s, Cmd: Command{Path: "/bin/bash", Args: []string{"-c", h.probe(os.Getpid())}, Dir: h.work},
		Tmp: t.TempDir(), Hide: []string{h.state}})
	if err != nil {
		t.Fatal(err)
	}
	check(t, runConfined(t, c), []string{"read", "ls", "tmp", "read-outside", "read-home"}, "write-workdir", "append-workdir")
	if h.udpReceived() {
		t.Error("a datagram got out")
	}
	s.Network.AllowAllUnixSockets = ptr(true)
	c, err = l.Wrap(Request{Settings: s, Cmd: Command{Path: "/bin/bash", Args: []string{"-c", h.probe(os.Getpid())}, Dir: h.work},
		Tmp: t.TempDir(), Hide: []string{h.state}})
	if err != nil {
		t.Fatal(err)
	}
	out := runConfined(t, c)
	if got := strings.Join(escapes(out), " "); !strings.HasPrefix(got, "write-workdir append-workdir unix-socket") || strings.Contains(got, "SECRET") {
		t.Errorf("with allowAllUnixSockets: %s\n%s", got, out)
	}
}
