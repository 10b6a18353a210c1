package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadMergesFiles(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.json")
	project := filepath.Join(dir, "project.json")
	os.WriteFile(user, []byte(`{"sandbox": {"enabled": true, "autoAllowBashIfSandboxed": false,
		"excludedCommands": ["docker"], "filesystem": {"allowWrite": ["//var/cache/x"], "denyRead": ["~/.ssh"]}}}`), 0o644)
	os.WriteFile(project, []byte(`{"sandbox": {"autoAllowBashIfSandboxed": true, "excludedCommands": ["npm run e2e"],
		"filesystem": {"denyRead": [".env"]}, "network": {"allowedDomains": ["github.com"]}}}`), 0o644)
	s, err := Load([]string{user, filepath.Join(dir, "missing.json"), project}, "/proj")
	if err != nil {
		t.Fatal(err)
	}
	home, _ := os.UserHomeDir()
	if !s.On() || !s.AutoAllow() || s.MustSandbox() || !s.UnsandboxedAllowed() {
		t.Fatalf("booleans: %+v", s)
	}
	if got := strings.Join(s.Filesystem.DenyRead, ","); got != filepath.Join(home, ".ssh")+",/proj/.env" {
		t.Errorf("denyRead %s", got)
	}
	if got := strings.Join(s.Filesystem.AllowWrite, ","); got != "/var/cache/x" {
		t.Errorf("allowWrite %s", got)
	}
	for cmd, want := range map[string]bool{"docker ps": true, "docker": true, "dockerd": false, "npm run e2e --x": true, "npm test": false, "ls": false} {
		if s.Excluded(cmd) != want || s.Sandboxed(cmd, false) == want {
			t.Errorf("%q excluded=%v sandboxed=%v, want excluded %v", cmd, s.Excluded(cmd), s.Sandboxed(cmd, false), want)
		}
	}
	if s.Sandboxed("ls", true) {
		t.Error("dangerouslyDisableSandbox ignored though allowUnsandboxedCommands defaults to true")
	}
	f := false
	s.AllowUnsandboxedCommands = &f
	if !s.Sandboxed("ls", true) {
		t.Error("allowUnsandboxedCommands false must ignore dangerouslyDisableSandbox")
	}
	if none, err := Load([]string{filepath.Join(dir, "missing.json")}, "/proj"); err != nil || none != nil || none.On() {
		t.Errorf("no sandbox section: %+v %v", none, err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"sandbox": {"enabled": "yes"}}`), 0o644)
	if _, err := Load([]string{bad}, "/proj"); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("a malformed section: %v", err)
	}
}

func TestWrapSaysWhyWhenUnavailable(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	l := Launcher{DisableLandlock: true}
	_, err := l.Wrap(Request{Cmd: Command{Path: "/bin/true", Dir: t.TempDir()}, Tmp: t.TempDir()})
	if u, ok := err.(*Unavailable); !ok || !strings.Contains(u.Reason, "apt-get install bubblewrap") {
		t.Fatalf("err %v", err)
	}
}
