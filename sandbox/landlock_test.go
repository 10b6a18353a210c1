package sandbox

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Where bubblewrap cannot start, Landlock confines the command and all it starts:
// a write outside the allowed paths fails (also from a setsid child), denyRead
// cannot be read, denyWrite cannot be written, a TCP connection to 127.0.0.1
// fails, and the result's note says why bubblewrap was not used.
func TestLandlockFallbackConfines(t *testing.T) {
	if landlockABI() < 4 {
		t.Skip("the kernel has no Landlock with network rules (ABI 4)")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	work, outside, tmp := filepath.Join(root, "work"), filepath.Join(root, "outside"), filepath.Join(root, "tmp")
	for _, d := range []string{work, outside, tmp, filepath.Join(work, "locked")} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(work, ".env"), []byte("TOKEN=hunter2\n"), 0o600)
	os.WriteFile(filepath.Join(outside, "readable"), []byte("visible\n"), 0o644)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	s := &Settings{Filesystem: Filesystem{DenyRead: []string{filepath.Join(work, ".env")}, DenyWrite: []string{filepath.Join(work, "locked")}}}
	l := Launcher{noBwrap: true}
	script := strings.Join([]string{
		"echo ok > inside && cat inside",
		"cat " + outside + "/readable",
		"touch " + outside + "/escaped 2>/dev/null || echo write-outside-refused",
		"setsid bash -c 'touch " + outside + "/setsid 2>/dev/null || echo setsid-refused' < /dev/null; sleep 0.2",
		"touch locked/x 2>/dev/null || echo denywrite-refused",
		"cat .env 2>/dev/null || echo denyread-refused",
		"(exec 3<>/dev/tcp/127.0.0.1/" + port + ") 2>/dev/null && echo connected || echo connect-refused",
		"echo tmp > $TMPDIR/t && echo tmp-ok",
	}, "; ")
	wrapped, notes, err := l.Wrap(s, Command{Path: "/bin/bash", Args: []string{"-c", script}, Dir: work}, tmp)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) == 0 || !strings.Contains(notes[0], "bubblewrap is switched off") || !strings.Contains(notes[0], "Landlock") {
		t.Errorf("notes %q", notes)
	}
	c := exec.Command(wrapped.Path, wrapped.Args...)
	c.Dir, c.Env = wrapped.Dir, wrapped.Env
	out, _ := c.CombinedOutput()
	for _, want := range []string{"ok\n", "visible\n", "write-outside-refused", "setsid-refused", "denywrite-refused", "denyread-refused", "connect-refused", "tmp-ok"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "hunter2") {
		t.Error("denyRead was read")
	}
	for _, p := range []string{"escaped", "setsid"} {
		if _, err := os.Stat(filepath.Join(outside, p)); err == nil {
			t.Errorf("%s was written", p)
		}
	}
}
