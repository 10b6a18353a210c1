package activities

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/sandbox"
	"github.com/toolpipe/toolpipe/tool"
)

func sandboxed(t *testing.T, s *sandbox.Settings, dir, command string, only bool) tool.Output {
	t.Helper()
	c := call(t, tool.BashName, dir, map[string]any{"command": command})
	c.Sandbox, c.SandboxOnly = s, only
	out, err := newActs(t).Bash(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func on() *bool { b := true; return &b }

func needBwrap(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bubblewrap is not installed; .ci/run installs it")
		}
		t.Skip("bubblewrap (bwrap) is not installed")
	}
}

// In the sandbox: the working directory and allowWrite are writable, everything
// else is not (also for a child that left the process group and session with
// setsid); denyRead is hidden; denyWrite stays read-only; no connection, not even
// to 127.0.0.1, gets out.
func TestSandboxConfinesBash(t *testing.T) {
	needBwrap(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	work, outside, allowed := filepath.Join(root, "work"), filepath.Join(root, "outside"), filepath.Join(root, "allowed")
	for _, d := range []string{work, outside, allowed, filepath.Join(work, "secrets"), filepath.Join(work, "locked")} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(work, "secrets", "key.pem"), []byte("PRIVATE KEY\n"), 0o600)
	os.WriteFile(filepath.Join(work, ".env"), []byte("TOKEN=hunter2\n"), 0o600)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	s := &sandbox.Settings{Enabled: on(), Filesystem: sandbox.Filesystem{
		AllowWrite: []string{allowed},
		DenyWrite:  []string{filepath.Join(work, "locked")},
		DenyRead:   []string{filepath.Join(work, "secrets"), filepath.Join(work, ".env")},
	}}
	run := func(cmd string) tool.Output { return sandboxed(t, s, work, cmd, false) }

	if out := run("echo made > inside && echo ok > " + allowed + "/x && cat inside"); out.IsError || out.Content != "made" {
		t.Fatalf("writes inside the allowed paths: %+v", out)
	}
	if out := run("touch " + outside + "/escaped"); !out.IsError || !strings.Contains(out.Content, "Read-only file system") {
		t.Errorf("a write outside: %+v", out)
	}
	if out := run("setsid bash -c 'touch " + outside + "/setsid; echo rc=$?' < /dev/null; sleep 0.1"); !strings.Contains(out.Content, "rc=1") {
		t.Errorf("a setsid child: %+v", out)
	}
	if out := run("touch locked/x"); !out.IsError {
		t.Errorf("a write to denyWrite: %+v", out)
	}
	// What steers later unsandboxed runs stays as it is.
	os.MkdirAll(filepath.Join(work, ".git", "hooks"), 0o755)
	os.MkdirAll(filepath.Join(work, ".claude"), 0o755)
	for _, cmd := range []string{"echo 'touch /tmp/pwned' > .git/hooks/pre-commit", "echo '{}' > .claude/settings.json"} {
		if out := run(cmd); !out.IsError {
			t.Errorf("%s: %+v", cmd, out)
		}
	}
	if out := run("cat secrets/key.pem; cat .env; ls secrets"); strings.Contains(out.Content, "PRIVATE KEY") || strings.Contains(out.Content, "hunter2") {
		t.Errorf("denyRead was read: %+v", out)
	}
	if out := run("exec 3<>/dev/tcp/127.0.0.1/" + itoa(port) + " && echo connected"); !out.IsError || strings.Contains(out.Content, "connected") {
		t.Errorf("a connection to 127.0.0.1: %+v", out)
	}
	if out := run("cat /proc/1/cmdline | tr '\\0' ' '"); strings.Contains(out.Content, "go") && !strings.Contains(out.Content, "bwrap") {
		t.Errorf("the worker's processes are visible: %+v", out)
	}
	for _, p := range []string{"escaped", "setsid"} {
		if _, err := os.Stat(filepath.Join(outside, p)); err == nil {
			t.Errorf("%s was written outside the sandbox", p)
		}
	}
	if _, err := os.Stat(filepath.Join(allowed, "x")); err != nil {
		t.Error("the write to allowWrite did not land")
	}
	// The same commands unsandboxed do escape: the test can fail.
	off := &sandbox.Settings{}
	if out := sandboxed(t, off, work, "touch "+outside+"/escaped && cat .env", false); out.IsError || !strings.Contains(out.Content, "hunter2") {
		t.Fatalf("unsandboxed control: %+v", out)
	}
}

// Excluded commands, and dangerouslyDisableSandbox where allowUnsandboxedCommands
// allows it, run outside; a call allowed only because it is sandboxed is refused
// when it would not be; allowedDomains says the network is off.
func TestSandboxExclusionsAndNotes(t *testing.T) {
	needBwrap(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	work, outside := filepath.Join(root, "work"), filepath.Join(root, "outside")
	os.MkdirAll(work, 0o755)
	os.MkdirAll(outside, 0o755)
	s := &sandbox.Settings{Enabled: on(), ExcludedCommands: []string{"touch:*"}, Network: sandbox.Network{AllowedDomains: []string{"example.com"}}}
	if out := sandboxed(t, s, work, "touch "+outside+"/excluded", false); out.IsError {
		t.Fatalf("an excluded command: %+v", out)
	}
	if out := sandboxed(t, s, work, "echo hi", false); !strings.Contains(out.Content, "network.allowedDomains") {
		t.Errorf("no note about allowedDomains: %+v", out)
	}
	c := call(t, tool.BashName, work, map[string]any{"command": "echo > " + outside + "/disabled", "dangerouslyDisableSandbox": true})
	c.Sandbox = s
	if out, _ := newActs(t).Bash(context.Background(), c); out.IsError {
		t.Errorf("dangerouslyDisableSandbox: %+v", out)
	}
	f := false
	strict := &sandbox.Settings{Enabled: on(), AllowUnsandboxedCommands: &f}
	c.Sandbox = strict
	c.Input, _ = json.Marshal(map[string]any{"command": "echo > " + outside + "/ignored", "dangerouslyDisableSandbox": true})
	if out, _ := newActs(t).Bash(context.Background(), c); !out.IsError {
		t.Errorf("dangerouslyDisableSandbox with allowUnsandboxedCommands false ran outside: %+v", out)
	}
	if out := sandboxed(t, s, work, "touch x", true); !out.IsError || !strings.Contains(out.Content, "only to run in the sandbox") {
		t.Errorf("a sandbox-only call that is excluded: %+v", out)
	}
	for _, p := range []string{"excluded", "disabled"} {
		if _, err := os.Stat(filepath.Join(outside, p)); err != nil {
			t.Errorf("%s was not written outside", p)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "ignored")); err == nil {
		t.Error("allowUnsandboxedCommands false did not keep the command in")
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// Where no sandbox can start, the result says why; failIfUnavailable and calls
// allowed only because they would be sandboxed do not run, others run outside
// with a note.
func TestSandboxUnavailable(t *testing.T) {
	old := launcher
	launcher = &sandbox.Launcher{DisableLandlock: true}
	t.Cleanup(func() { launcher = old })
	t.Setenv("PATH", t.TempDir()) // no bwrap
	work := t.TempDir()
	if out := sandboxed(t, &sandbox.Settings{Enabled: on(), FailIfUnavailable: on()}, work, "/bin/echo ran", false); !out.IsError ||
		strings.Contains(out.Content, "ran") || !strings.Contains(out.Content, "bubblewrap (bwrap) is not installed") || !strings.Contains(out.Content, "failIfUnavailable") {
		t.Errorf("failIfUnavailable: %+v", out)
	}
	if out := sandboxed(t, &sandbox.Settings{Enabled: on()}, work, "/bin/echo ran", true); !out.IsError || strings.HasPrefix(out.Content, "ran") ||
		!strings.Contains(out.Content, "autoAllowBashIfSandboxed") {
		t.Errorf("sandbox-only call: %+v", out)
	}
	if out := sandboxed(t, &sandbox.Settings{Enabled: on()}, work, "/bin/echo ran", false); out.IsError || !strings.HasPrefix(out.Content, "ran\n") ||
		!strings.Contains(out.Content, "Ran outside the sandbox: the sandbox cannot start: bubblewrap (bwrap) is not installed") {
		t.Errorf("unsandboxed with a note: %+v", out)
	}
}
