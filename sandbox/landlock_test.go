package sandbox

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Where bubblewrap cannot start, Landlock confines the command and all it starts:
// a write outside the allowed paths fails (also from a setsid child), denyRead
// cannot be read, denyWrite cannot be written, control files (.mcp.json, which
// does not exist, and .git/config) cannot be written, a TCP connection to
// 127.0.0.1 fails, the worker's (the parent's) /proc/PID/environ cannot be
// read, and the result's note says why bubblewrap was not used. A
// directory holding a protected path is writable only in its existing entries:
// nothing new can be made at the top of the working directory (documented).
func TestLandlockFallbackConfines(t *testing.T) {
	if landlockABI() < 4 {
		t.Skip("the kernel has no Landlock with network rules (ABI 4)")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	work, outside, tmp := filepath.Join(root, "work"), filepath.Join(root, "outside"), filepath.Join(root, "tmp")
	for _, d := range []string{work, outside, tmp, filepath.Join(work, "locked"), filepath.Join(work, "sub"), filepath.Join(work, ".git")} {
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
		"echo written > sub/inside && cat sub/inside",
		"touch top 2>/dev/null || echo top-level-refused",
		"echo '{}' > .mcp.json 2>/dev/null || echo mcp-refused",
		"echo x >> .git/config 2>/dev/null || echo git-config-refused",
		"cat " + outside + "/readable",
		"touch " + outside + "/escaped 2>/dev/null || echo write-outside-refused",
		"setsid bash -c 'touch " + outside + "/setsid 2>/dev/null || echo setsid-refused' < /dev/null; sleep 0.2",
		"touch locked/x 2>/dev/null || echo denywrite-refused",
		"cat .env 2>/dev/null || echo denyread-refused",
		"(exec 3<>/dev/tcp/127.0.0.1/" + port + ") 2>/dev/null && echo connected || echo connect-refused",
		"echo tmp > $TMPDIR/t && echo tmp-ok",
		"cat /proc/$PPID/environ > /dev/null 2>&1 && echo environ-read || echo environ-refused",
	}, "; ")
	wrapped, err := l.Wrap(Request{Settings: s, Cmd: Command{Path: "/bin/bash", Args: []string{"-c", script}, Dir: work}, Tmp: tmp})
	if err != nil {
		t.Fatal(err)
	}
	if notes := wrapped.Notes; len(notes) == 0 || !strings.Contains(notes[0], "bubblewrap is switched off") || !strings.Contains(notes[0], "Landlock") {
		t.Errorf("notes %q", notes)
	}
	out := runConfined(t, wrapped)
	os.WriteFile(filepath.Join(work, ".git", "config"), nil, 0o644)
	for _, want := range []string{"written\n", "top-level-refused", "mcp-refused", "git-config-refused", "visible\n", "write-outside-refused", "setsid-refused", "denywrite-refused", "denyread-refused", "connect-refused", "tmp-ok", "environ-refused"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "hunter2") {
		t.Error("denyRead was read")
	}
	for _, p := range []string{"escaped", "setsid"} {
		if _, err := os.Stat(filepath.Join(outside, p)); err == nil {
			t.Errorf("%s was written", p)
		}
	}
}
