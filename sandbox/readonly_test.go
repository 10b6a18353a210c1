package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// escapes lists what out says got through.
func escapes(out string) []string {
	var got []string
	for _, line := range strings.Split(out, "\n") {
		if what, ok := strings.CutPrefix(line, "ESCAPED "); ok {
			got = append(got, strings.Fields(what)[0])
		}
	}
	return got
}

// The probe run outside any sandbox gets everywhere, so the tests below can
// fail: every escape they rule out happens here.
func unconfinedProbe(t *testing.T, h *hostileHost) {
	t.Helper()
	cmd := exec.Command("/bin/bash", "-c", h.probe(os.Getpid()))
	cmd.Dir = h.work
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	out, _ := cmd.CombinedOutput()
	got := strings.Join(escapes(string(out)), " ")
	want := []string{"write-workdir", "write-home", "write-outside", "ssh", "SECRET-AWS", "SECRET-NETRC", "SECRET-GITSTORE", "SECRET-GH",
		"state-dir", "denyRead", "unix-socket", "abstract-socket", "tcp", "worker-proc", "write-hidden"}
	if os.Geteuid() == 0 {
		want = append(want, "worker-environ") // root reads an undumpable process's environ
	}
	for _, w := range want {
		if !strings.Contains(" "+got+" ", " "+w+" ") {
			t.Fatalf("the unconfined probe did not escape by %s, so the test proves nothing: %s", w, out)
		}
	}
	if !h.udpReceived() {
		t.Fatal("the unconfined probe's datagram did not arrive")
	}
	for _, p := range []string{"new.txt", "../home/new", "../outside/new", "../state/new"} {
		os.Remove(filepath.Join(h.work, p))
	}
	os.WriteFile(filepath.Join(h.work, "file.txt"), []byte("one\ntwo\nthree\n"), 0o600)
}

// A command classified read-only by mistake (here: one that writes, connects
// and reads secrets) runs in the read-only sandbox and gets nothing it could not
// have read with the Read tool: no write anywhere (the working directory, home,
// outside), no credential (~/.ssh, ~/.aws, ~/.netrc, gh's token, the store
// ~/.gitconfig's credential helper names), no state directory, no denyRead, no
// Unix socket (on the filesystem or abstract), no TCP or UDP, no sight of the
// worker's process. What read-only commands need still works: reading the
// working directory, additionalDirectories and the rest of the filesystem, ls, a
// private TMPDIR that leaves nothing behind.
func TestReadOnlySandboxConfinesMisclassifiedCommands(t *testing.T) {
	needBwrap(t)
	h := newHostileHost(t)
	unconfinedProbe(t, h)
	l := &Launcher{}
	marker := "toolpipe-probe-" + strconv.Itoa(os.Getpid())
	c, err := l.Wrap(Request{ReadOnly: true, Settings: &Settings{Filesystem: Filesystem{DenyRead: []string{filepath.Join(h.work, ".env")}}},
		Cmd: Command{Path: "/bin/bash", Args: []string{"-c", h.probe(os.Getpid()) + "\necho > $TMPDIR/" + marker}, Dir: h.work},
		// t.TempDir is under /tmp, which the read-only sandbox replaces by an empty
		// one: listed as additional directories, home and outside are visible as a
		// home directory outside /tmp would be (with the credentials inside hidden).
		Tmp: t.TempDir(), Dirs: []string{h.outside, h.home}, Hide: []string{h.state}})
	if err != nil {
		t.Fatal(err)
	}
	out := runConfined(t, c)
	check(t, out, []string{"read", "ls", "tmp", "read-outside", "read-home"})
	if h.udpReceived() {
		t.Error("a datagram got out")
	}
	if _, err := os.Stat(filepath.Join("/tmp", marker)); err == nil {
		os.Remove(filepath.Join("/tmp", marker))
		t.Error("the private /tmp was the host's")
	}
	if data, _ := os.ReadFile(filepath.Join(h.work, "file.txt")); string(data) != "one\ntwo\nthree\n" {
		t.Errorf("file.txt changed: %q", data)
	}
	// /tmp is private: what additionalDirectories does not list is not there.
	c, err = l.Wrap(Request{ReadOnly: true, Cmd: Command{Path: "/bin/cat", Args: []string{filepath.Join(h.outside, "readable")}, Dir: h.work}, Tmp: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if out := runConfined(t, c); strings.Contains(out, "visible") {
		t.Errorf("a /tmp path outside the working directories was readable: %s", out)
	}
}

// The Landlock fallback of the read-only sandbox, where bubblewrap cannot start:
// the same probe gets no write, credential, state, denyRead, socket or network,
// and the worker's /proc/PID/environ stays closed although the worker's
// processes are in sight (no PID namespace: the one documented difference).
func TestReadOnlyLandlockFallbackConfines(t *testing.T) {
	if landlockABI() < 4 {
		t.Skip("the kernel has no Landlock with network rules (ABI 4)")
	}
	h := newHostileHost(t)
	unconfinedProbe(t, h)
	l := &Launcher{noBwrap: true}
	c, err := l.Wrap(Request{ReadOnly: true, Settings: &Settings{Filesystem: Filesystem{DenyRead: []string{filepath.Join(h.work, ".env")}}},
		Cmd: Command{Path: "/bin/bash", Args: []string{"-c", h.probe(os.Getpid())}, Dir: h.work}, Tmp: t.TempDir(), Hide: []string{h.state}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Notes) != 0 {
		t.Errorf("the read-only sandbox adds no note to results: %q", c.Notes)
	}
	out := runConfined(t, c)
	check(t, out, []string{"read", "ls", "tmp", "read-outside", "read-home"}, "worker-proc")
	if h.udpReceived() {
		t.Error("a datagram got out")
	}
}

// A working directory in a subdirectory of a repository under /tmp: git still
// finds the repository in the read-only sandbox (its private /tmp keeps the
// repository's root visible).
func TestReadOnlySandboxKeepsTheRepositoryOfASubdirectory(t *testing.T) {
	needBwrap(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	sub := filepath.Join(root, "sub")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(root, "top.txt"), []byte("x\n"), 0o644)
	c, err := (&Launcher{}).Wrap(Request{ReadOnly: true, Cmd: Command{Path: "/usr/bin/git", Args: []string{"status", "--short"}, Dir: sub,
		Env: []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "GIT_OPTIONAL_LOCKS=0"}}, Tmp: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if out := runConfined(t, c); out != "?? ../top.txt\n" {
		t.Errorf("git status in the sandbox: %q", out)
	}
}
