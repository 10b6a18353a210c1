package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The approval flow with the CLI, across a worker restart: `starter run` waits for
// approval and is killed while it waits (its embedded server and worker die with
// it); `starter approve` and `starter deny`, run afterwards, start the server and a
// worker on the same state directory and answer; re-running `starter run` prints
// the results. The wait survived because it is workflow state, not a process.
func TestApprovalAfterWorkerRestart(t *testing.T) {
	work, state := t.TempDir(), t.TempDir()
	settings := writeJSON(t, filepath.Join(t.TempDir(), "settings.json"), map[string]any{
		"permissions": map[string]any{"ask": []string{"Bash(touch:*)"}, "defaultMode": "bypassPermissions"}})
	msg := filepath.Join(t.TempDir(), "msg.json")
	os.WriteFile(msg, []byte(`{"role":"assistant","content":[`+strings.Join([]string{
		toolUse("c1", "Bash", map[string]any{"command": "echo ran >> log"}),
		toolUse("c2", "Bash", map[string]any{"command": "touch approved"}),
		toolUse("c3", "Bash", map[string]any{"command": "touch denied"}),
	}, ",")+`]}`), 0o644)
	runArgs := []string{"run", "--workdir", work, "--settings", settings, msg}

	first := hermetic(t, starter(t, state, runArgs...))
	stderr, err := first.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	first.Stdout = io.Discard
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	turn := waitForApprovalPrompt(t, stderr, "c2")
	first.Process.Signal(syscall.SIGKILL)
	first.Wait()

	// status (a fresh server and worker) shows what is pending.
	out := starterOK(t, state, "status", turn)
	if !strings.Contains(out, "awaiting_approval") || !strings.Contains(out, "c2 waiting for approval: Bash(touch approved)") ||
		!strings.Contains(out, "starter approve "+turn+" c2") {
		t.Fatalf("status:\n%s", out)
	}
	// A call that is not waiting is refused as bad input.
	if code, out := starterExit(t, state, "approve", turn, "c3"); code != 2 || !strings.Contains(out, `"c3" is not waiting for approval; waiting: c2`) {
		t.Fatalf("approve c3 before it asks: exit %d: %s", code, out)
	}
	if out := starterOK(t, state, "approve", turn, "c2"); !strings.Contains(out, "approved c2 Bash(touch approved)") {
		t.Fatalf("approve: %s", out)
	}
	if _, err := os.Stat(filepath.Join(work, "approved")); err != nil {
		t.Fatal("approve returned before the approved call ran")
	}
	if out := starterOK(t, state, "deny", turn, "c3", "--reason", "not in this sprint"); !strings.Contains(out, "denied c3") {
		t.Fatalf("deny: %s", out)
	}

	again := hermetic(t, starter(t, state, runArgs...))
	var errBuf bytes.Buffer
	again.Stderr = &errBuf
	stdout, err := again.Output()
	if err != nil {
		t.Fatalf("re-run: %v\n%s", err, errBuf.String())
	}
	m := decode(t, stdout)
	if len(m.Content) != 3 || m.Content[0].IsError || m.Content[1].IsError {
		t.Fatalf("results: %s", stdout)
	}
	if r := m.Content[2]; !r.IsError || !strings.Contains(r.Content, "The user denied permission") || !strings.Contains(r.Content, "not in this sprint") {
		t.Fatalf("c3: %+v", r)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "log")); string(b) != "ran\n" {
		t.Fatalf("log is %q: c1 ran again", b)
	}
	if _, err := os.Stat(filepath.Join(work, "denied")); err == nil {
		t.Fatal("the denied call ran")
	}
}

// waitForApprovalPrompt reads `starter run`'s stderr until it says the call id waits
// for approval, and returns the turn's workflow id.
func waitForApprovalPrompt(t *testing.T, stderr io.Reader, id string) string {
	t.Helper()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	turn := ""
	timeout := time.After(90 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("starter run ended before asking for approval")
			}
			if after, found := strings.CutPrefix(l, "turn "); found {
				turn = after
			}
			if strings.Contains(l, id+" waiting for approval") {
				if turn == "" {
					t.Fatal("no turn id on stderr")
				}
				go func() {
					for range lines {
					}
				}()
				return turn
			}
		case <-timeout:
			t.Fatal("timed out waiting for the approval prompt")
		}
	}
}

func starterExit(t *testing.T, state string, args ...string) (int, string) {
	t.Helper()
	cmd := hermetic(t, starter(t, state, args...))
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errorsAs(err, &ee) {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return 0, string(out)
}

func starterOK(t *testing.T, state string, args ...string) string {
	t.Helper()
	code, out := starterExit(t, state, args...)
	if code != 0 {
		t.Fatalf("starter %v: exit %d\n%s", args, code, out)
	}
	return out
}
