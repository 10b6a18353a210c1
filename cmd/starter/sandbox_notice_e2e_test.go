package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A read-only Bash command that runs without approval (default mode) runs in
// the read-only sandbox, dangerouslyDisableSandbox or not: it cannot write the
// working directory. Where bwrap is not on the worker's PATH, starter says so
// once on stderr (and the command runs confined by Landlock).
func TestReadOnlyBashIsSandboxedAndMissingBwrapIsSaid(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bubblewrap (bwrap) is not installed")
	}
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, "notes.txt"), []byte("notes\n"), 0o644)
	msg := filepath.Join(t.TempDir(), "msg.json")
	os.WriteFile(msg, []byte(`{"role":"assistant","content":[`+
		`{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"[ -w notes.txt ] && echo writable || echo readonly"}},`+
		`{"type":"tool_use","id":"toolu_2","name":"Bash","input":{"command":"[ -w notes.txt ] && echo writable || echo readonly","dangerouslyDisableSandbox":true}}]}`), 0o644)
	for _, withBwrap := range []bool{true, false} {
		cmd := starter(t, t.TempDir(), "run", "--permission-mode", "default", "--workdir", work, msg)
		if !withBwrap {
			cmd.Env = append(cmd.Env, "PATH=/nonexistent")
		}
		out, stderr := output(t, "run", cmd)
		res := decode(t, out)
		for _, r := range res.Content {
			// Landlock confines at open(2), not access(2): only bubblewrap's
			// read-only mount shows in [ -w ]; sandbox's tests prove Landlock's.
			if r.IsError || withBwrap && r.Content != "readonly" {
				t.Errorf("bwrap %v, %s: %+v", withBwrap, r.ToolUseID, r)
			}
		}
		notice := "toolpipe: no bubblewrap for the read-only sandbox: bubblewrap (bwrap) is not installed"
		if n := strings.Count(stderr, notice); withBwrap && n != 0 || !withBwrap && n != 1 {
			t.Errorf("bwrap %v: the notice appears %d times:\n%s", withBwrap, n, stderr)
		}
	}
}

// `agent status` says how read-only commands are confined on this machine:
// bubblewrap, or Landlock (naming why not bubblewrap).
func TestAgentStatusSaysHowReadOnlyCommandsAreConfined(t *testing.T) {
	root := repoRoot(t)
	state := t.TempDir()
	output(t, "agent", starter(t, state, "agent", "--session", "sb", "--workdir", root,
		"--fake-model", filepath.Join(root, "examples", "agent-script.json"), "What is left to do in examples/project?"))
	for path, want := range map[string]string{
		os.Getenv("PATH"): "bubblewrap: read-only commands run in the read-only sandbox",
		"/nonexistent":    "Landlock (no bubblewrap: bubblewrap (bwrap) is not installed",
	} {
		if want[0] == 'b' {
			if _, err := exec.LookPath("bwrap"); err != nil {
				continue
			}
		}
		st := starter(t, state, "agent", "status", "sb")
		st.Env = append(st.Env, "PATH="+path)
		out, _ := output(t, "agent status", st)
		if !strings.Contains(string(out), "sandbox ") || !strings.Contains(string(out), want) {
			t.Errorf("PATH=%s: status lacks %q:\n%s", path, want, out)
		}
	}
}
