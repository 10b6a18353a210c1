package sandbox

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// runConfined runs a confined command to its end and returns its output.
func runConfined(t *testing.T, c *Confined) string {
	t.Helper()
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Dir, cmd.Env, cmd.ExtraFiles = c.Dir, c.Env, c.Files
	out, _ := cmd.CombinedOutput()
	c.Release()
	return string(out)
}

func needBwrap(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bubblewrap is not installed; .ci/run installs it")
		}
		t.Skip("bubblewrap (bwrap) is not installed")
	}
}

// hostileHost is a machine as a misclassified command would find it: a home
// directory full of credentials (one of them a git credential store only
// ~/.gitconfig names), the worker's state directory, a Unix socket on the
// filesystem and an abstract one, a TCP server on 127.0.0.1, and a working
// directory with a denyRead .env. HOME points at the fake home for the test.
type hostileHost struct {
	root, home, state, work, outside, sock string
	abstract                               string
	tcpPort, udpPort                       int
	udp                                    *net.UDPConn
}

func newHostileHost(t *testing.T) *hostileHost {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	h := &hostileHost{root: root, home: filepath.Join(root, "home"), state: filepath.Join(root, "state"),
		work: filepath.Join(root, "work"), outside: filepath.Join(root, "outside"), sock: filepath.Join(root, "outside", "daemon.sock"),
		abstract: fmt.Sprintf("toolpipe-test-%d-%s", os.Getpid(), filepath.Base(root))}
	files := map[string]string{
		"home/.ssh/id_rsa":          "-----BEGIN PRIVATE KEY-----\n",
		"home/.aws/credentials":     "aws_secret_access_key = SECRET-AWS\n",
		"home/.netrc":               "machine example.com password SECRET-NETRC\n",
		"home/.my-creds":            "https://u:SECRET-GITSTORE@example.com\n",
		"home/.gitconfig":           "[credential]\n\thelper = store --file ~/.my-creds\n",
		"home/.config/gh/hosts.yml": "oauth_token: SECRET-GH\n",
		"home/notes.txt":            "ordinary\n",
		"state/temporal.db":         "SECRET-STATE\n",
		"work/file.txt":             "one\ntwo\nthree\n",
		"work/.env":                 "TOKEN=SECRET-ENV\n",
		"outside/readable":          "visible\n",
	}
	for rel, content := range files {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Dir(h.sock), 0o755)
	for _, addr := range []string{h.sock, "@" + h.abstract} {
		ln, err := net.Listen("unix", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		go acceptAndGreet(ln)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go acceptAndGreet(ln)
	h.tcpPort = ln.Addr().(*net.TCPAddr).Port
	if h.udp, err = net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.udp.Close() })
	h.udpPort = h.udp.LocalAddr().(*net.UDPAddr).Port
	t.Setenv("HOME", h.home)
	t.Setenv("XDG_CONFIG_HOME", "")
	return h
}

// udpReceived reports whether a datagram reached the host's UDP server. Loopback
// delivers during sendto, so after the probe ended it is there or never will be.
func (h *hostileHost) udpReceived() bool {
	rc, err := h.udp.SyscallConn()
	if err != nil {
		return false
	}
	got := false
	rc.Read(func(fd uintptr) bool {
		n, _, err := unix.Recvfrom(int(fd), make([]byte, 16), unix.MSG_DONTWAIT)
		got = err == nil && n > 0
		return true // done, whatever it found
	})
	return got
}

// acceptAndGreet answers every connection with "hello", so that a probe that
// gets through says so.
func acceptAndGreet(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		c.Write([]byte("hello\n"))
		c.Close()
	}
}

// probe is a script that prints "ESCAPED <what>" for each forbidden thing it
// managed and "OK <what>" for what a read-only command must still be able to do.
func (h *hostileHost) probe(workerPid int) string {
	py := func(code string) string { return "/usr/bin/python3 -c '" + code + "' 2>/dev/null" }
	lines := []string{
		`wc -l < file.txt | grep -q 3 && echo "OK read"`,
		`ls | grep -q file.txt && echo "OK ls"`,
		`echo scratch > "$TMPDIR/t" && echo "OK tmp"`,
		`touch new.txt 2>/dev/null && echo "ESCAPED write-workdir"`,
		`echo x >> file.txt 2>/dev/null && echo "ESCAPED append-workdir"`,
		`touch "$HOME/new" 2>/dev/null && echo "ESCAPED write-home"`,
		`touch ` + h.outside + `/new 2>/dev/null && echo "ESCAPED write-outside"`,
		`cat ` + h.outside + `/readable | grep -q visible && echo "OK read-outside"`,
		`cat "$HOME/notes.txt" | grep -q ordinary && echo "OK read-home"`,
		`cat "$HOME/.ssh/id_rsa" 2>/dev/null | grep -q PRIVATE && echo "ESCAPED ssh"`,
		`cat "$HOME/.aws/credentials" "$HOME/.netrc" "$HOME/.my-creds" "$HOME/.config/gh/hosts.yml" 2>/dev/null | grep -o "SECRET-[A-Z]*" | sed "s/^/ESCAPED /"`,
		`cat ` + h.state + `/temporal.db 2>/dev/null | grep -q SECRET && echo "ESCAPED state-dir"`,
		`cat .env 2>/dev/null | grep -q SECRET && echo "ESCAPED denyRead"`,
		py(`import socket;s=socket.socket(socket.AF_UNIX);s.connect("` + h.sock + `");print("ESCAPED unix-socket",s.recv(9))`),
		py(`import socket;s=socket.socket(socket.AF_UNIX);s.connect("\0` + h.abstract + `");print("ESCAPED abstract-socket",s.recv(9))`),
		`(exec 3<>/dev/tcp/127.0.0.1/` + strconv.Itoa(h.tcpPort) + ` && head -1 <&3 | grep -q hello && echo "ESCAPED tcp") 2>/dev/null`,
		`cat /proc/` + strconv.Itoa(workerPid) + `/environ 2>/dev/null | tr "\0" "\n" | grep -q . && echo "ESCAPED worker-environ"`,
		`[ -e /proc/` + strconv.Itoa(workerPid) + ` ] && echo "ESCAPED worker-proc"`,
		`touch ` + h.state + `/new 2>/dev/null && echo "ESCAPED write-hidden"`,
		py(`import socket;socket.socket(socket.AF_INET,socket.SOCK_DGRAM).sendto(b"hello",("127.0.0.1",` + strconv.Itoa(h.udpPort) + `))`),
		`exit 0`,
	}
	return strings.Join(lines, "\n")
}

// check fails t for every ESCAPED line of out, except those allowed, and for
// every wanted OK line missing.
func check(t *testing.T, out string, want []string, allowed ...string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if what, ok := strings.CutPrefix(line, "ESCAPED "); ok && !contains(allowed, strings.Fields(what)[0]) {
			t.Errorf("escaped: %s", what)
		}
	}
	for _, w := range want {
		if !strings.Contains(out, "OK "+w+"\n") {
			t.Errorf("%s did not work:\n%s", w, out)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
