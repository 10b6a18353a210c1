package activities

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/sandbox"
	"github.com/toolpipe/toolpipe/tool"
)

// A command the classifier let through by mistake, simulated by giving the
// Bash activity a writing command with ReadOnlySandbox set (what the workflow
// sets for a command allowed only because it was classified read-only), and
// dangerouslyDisableSandbox on top: it runs in the read-only sandbox and fails
// to write (working directory, home), to read ~/.ssh or the state directory,
// to connect to a Unix socket or 127.0.0.1, and to see the worker's
// /proc/PID/environ. A background command gets the same. Without the flag the
// same command does all of it.
func TestMisclassifiedCommandRunsInTheReadOnlySandbox(t *testing.T) {
	needBwrap(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home, work := filepath.Join(root, "home"), filepath.Join(root, "work")
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.MkdirAll(work, 0o755)
	os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n"), 0o600)
	os.WriteFile(filepath.Join(work, "notes.txt"), []byte("notes\n"), 0o644)
	t.Setenv("HOME", home)
	old := launcher
	launcher = &sandbox.Launcher{} // finds the credentials of this HOME
	t.Cleanup(func() { launcher = old })
	a := newActs(t)
	os.WriteFile(filepath.Join(a.cfg.StateDir, "temporal.db"), []byte("another session's secrets\n"), 0o600)
	sock := filepath.Join(work, "daemon.sock")
	unixLn, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer unixLn.Close()
	tcpLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcpLn.Close()
	for _, ln := range []net.Listener{unixLn, tcpLn} {
		go func() {
			for c, err := ln.Accept(); err == nil; c, err = ln.Accept() {
				c.Write([]byte("hello from outside\n"))
				c.Close()
			}
		}()
	}
	t.Setenv("TOOLPIPE_TEST_PORT", strconv.Itoa(tcpLn.Addr().(*net.TCPAddr).Port))
	command := strings.Join([]string{
		"touch pwned", "echo more >> notes.txt", "touch $HOME/pwned",
		"cat $HOME/.ssh/id_ed25519", "ls -A " + a.cfg.StateDir,
		`/usr/bin/python3 -c 'import socket;s=socket.socket(socket.AF_UNIX);s.connect("` + sock + `");print(s.recv(99))'`,
		"(exec 3<>/dev/tcp/127.0.0.1/$TOOLPIPE_TEST_PORT && head -1 <&3)",
		"echo environ=$(tr '\\0' '\\n' < /proc/" + strconv.Itoa(os.Getpid()) + "/environ | grep -c ^PATH=)",
		"echo end",
	}, "; ")
	c := call(t, tool.BashName, work, map[string]any{"command": command, "dangerouslyDisableSandbox": true})
	c.ReadOnlySandbox = true
	out, err := a.Bash(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"PRIVATE KEY", "temporal.db", "hello from outside", "environ=1"} {
		if strings.Contains(out.Content, leak) {
			t.Errorf("the sandboxed command got %q:\n%s", leak, out.Content)
		}
	}
	if !strings.Contains(out.Content, "Read-only file system") || !strings.HasSuffix(out.Content, "end") {
		t.Errorf("output:\n%s", out.Content)
	}
	for _, p := range []string{filepath.Join(work, "pwned"), filepath.Join(home, "pwned")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(work, "notes.txt")); string(data) != "notes\n" {
		t.Errorf("notes.txt: %q", data)
	}

	// In the background too.
	bg := call(t, tool.BashName, work, map[string]any{"command": "touch pwned-bg; echo end", "run_in_background": true})
	bg.ReadOnlySandbox = true
	file := filepath.Join(t.TempDir(), "task.output")
	if _, err := a.BashBackground(context.Background(), contract.BackgroundRequest{Call: bg, OutputFile: file, TaskID: "t1"}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(file); !strings.Contains(string(data), "Read-only file system") {
		t.Errorf("background output: %s", data)
	}
	if _, err := os.Stat(filepath.Join(work, "pwned-bg")); err == nil {
		t.Error("the background command wrote")
	}

	// The control: without the read-only sandbox the same command gets out.
	c.ReadOnlySandbox = false
	out, err = a.Bash(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	leaks := []string{"PRIVATE KEY", "temporal.db", "hello from outside"}
	if os.Geteuid() == 0 {
		leaks = append(leaks, "environ=1") // root reads even an undumpable worker's environ
	}
	for _, leak := range leaks {
		if !strings.Contains(out.Content, leak) {
			t.Errorf("unconfined, the command did not get %q, so the test proves nothing:\n%s", leak, out.Content)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "pwned")); err != nil {
		t.Error("unconfined, the command did not write")
	}
}
