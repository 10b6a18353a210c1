package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/internal/testenv"
)

// The end-to-end tests drive the built starter binary as a user would, each on a
// state directory of its own (so each runs its own embedded server).

var starterBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "starter-e2e")
	if err != nil {
		panic(err)
	}
	starterBin = filepath.Join(dir, "starter")
	build := exec.Command("go", "build", "-o", starterBin, ".")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build starter:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// starter prepares a starter command with its own state directory; it runs no UI so
// tests never fight over its port.
func starter(t *testing.T, stateDir string, args ...string) *exec.Cmd {
	cmd := exec.Command(starterBin, append(args, "--state-dir", stateDir, "--ui=false")...)
	// XDG_CONFIG_HOME: the developer's own toolpipe.yaml (trusted workspaces
	// among others) must not change what a test sees.
	cmd.Env = append(os.Environ(), "TEMPORAL_ADDRESS=", "TOOLPIPE_LOG_LEVEL=error", "XDG_CONFIG_HOME="+t.TempDir())
	return cmd
}

type userMsg = testenv.UserMessage

// output runs cmd, which must succeed, and returns its stdout and stderr; a failure
// fails the test with what was run (what), the error and both outputs, so every
// end-to-end run shows why it failed the same way.
func output(t *testing.T, what string, cmd *exec.Cmd) (stdout []byte, stderr string) {
	t.Helper()
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s\n%s", what, err, out, errBuf.String())
	}
	return out, errBuf.String()
}

func decode(t *testing.T, out []byte) userMsg { return testenv.DecodeUserMessage(t, out) }

func TestRunExampleTurn(t *testing.T) {
	root := repoRoot(t)
	cmd := starter(t, t.TempDir(), "run", "--workdir", root, filepath.Join(root, "examples", "turn.json"))
	out, _ := output(t, "run", cmd)
	testenv.CheckExampleTurn(t, root, out)
}

func TestRunBadInputExits2(t *testing.T) {
	for name, input := range map[string]string{
		"not json":              "this is not json",
		"not assistant":         `{"role":"user","content":[]}`,
		"tool_use without id":   `{"role":"assistant","content":[{"type":"tool_use","name":"Read","input":{}}]}`,
		"input not an object":   `{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":[1]}]}`,
		"duplicate tool_use id": `{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}},{"type":"tool_use","id":"t1","name":"Read","input":{}}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			cmd := starter(t, t.TempDir(), "run", "-")
			cmd.Stdin = strings.NewReader(input)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			var ee *exec.ExitError
			if !errorsAs(err, &ee) || ee.ExitCode() != 2 {
				t.Fatalf("exit: %v, want status 2 (stdout %q)", err, out)
			}
			if lines := strings.Count(strings.TrimRight(stderr.String(), "\n"), "\n"); lines != 0 || stderr.Len() == 0 {
				t.Fatalf("stderr is not one line: %q", stderr.String())
			}
		})
	}
}

func errorsAs(err error, target **exec.ExitError) bool {
	ee, ok := err.(*exec.ExitError)
	if ok {
		*target = ee
	}
	return ok
}

// waitFile waits for a file a tool creates: another process's side effect, with no
// event to wait on but its appearance.
// killWhenRunning starts cmd, waits until its tool has written marker, and kills
// the whole starter (its embedded server and worker with it) with SIGKILL.
func killWhenRunning(t *testing.T, cmd *exec.Cmd, marker string) {
	t.Helper()
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The marker's line, not only the file: `echo started >> running` creates the
	// file before it writes, and a kill in between would leave it empty.
	deadline := time.Now().Add(60 * time.Second)
	for st, err := os.Stat(marker); err != nil || st.Size() == 0; st, err = os.Stat(marker) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for a line in %s", marker)
		}
		time.Sleep(20 * time.Millisecond) // another process writes it: no event to await
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
}

func waitFile(t *testing.T, path string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func toolUse(id, name string, input map[string]any) string {
	b, _ := json.Marshal(map[string]any{"type": "tool_use", "id": id, "name": name, "input": input})
	return string(b)
}

// --stream: the first tool starts before the last block is even sent.
func TestRunStreamStartsToolsEarly(t *testing.T) {
	work := t.TempDir()
	cmd := starter(t, t.TempDir(), "run", "--stream", "--workdir", work)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(stdin)
	fmt.Fprintln(w, `{"type":"text","text":"first I will mark, then count"}`)
	fmt.Fprintln(w, toolUse("s1", "Bash", map[string]any{"command": "echo one > marker"}))
	w.Flush()
	waitFile(t, filepath.Join(work, "marker"), 60*time.Second) // s1 ran; s2 not yet sent
	fmt.Fprintln(w, toolUse("s2", "Bash", map[string]any{"command": "cat marker"}))
	w.Flush()
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("run --stream: %v\n%s", err, stderr.String())
	}
	m := decode(t, stdout.Bytes())
	if len(m.Content) != 2 || m.Content[0].ToolUseID != "s1" || m.Content[1].Content != "one" {
		t.Fatalf("got %s", stdout.String())
	}
}

// Crash and resume: the process running the worker (and the embedded server) is
// killed while one tool has completed and another runs. Re-running the same turn
// restarts the server on the same SQLite file and finishes the turn: the completed
// tool's side effect happened once, and the running one reports interrupted instead
// of running again.
func TestCrashAndResume(t *testing.T) {
	work, state := t.TempDir(), t.TempDir()
	msg := fmt.Sprintf(`{"role":"assistant","content":[%s,%s]}`,
		toolUse("c1", "Bash", map[string]any{"command": "echo done >> count"}),
		toolUse("c2", "Bash", map[string]any{"command": "echo started >> running; sleep 120"}))
	msgFile := filepath.Join(t.TempDir(), "msg.json")
	os.WriteFile(msgFile, []byte(msg), 0o644)
	// A heartbeat timeout far beyond the test's time: the re-run learns that the
	// tool's process died from its lock in the state directory, not from the timeout.
	args := []string{"run", "--workdir", work, "--heartbeat-timeout", "10m", msgFile}

	killWhenRunning(t, starter(t, state, args...), filepath.Join(work, "running"))

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	plain := starter(t, state, args...)
	second := exec.CommandContext(ctx, plain.Path, plain.Args[1:]...)
	second.Env = plain.Env
	out, _ := output(t, "re-run", second)
	m := decode(t, out)
	if len(m.Content) != 2 || m.Content[0].IsError || m.Content[1].Content != "interrupted: the worker running this tool was lost; it may have partially run" || !m.Content[1].IsError {
		t.Fatalf("after resume: %s", out)
	}
	for file, want := range map[string]string{"count": "done\n", "running": "started\n"} {
		if b, _ := os.ReadFile(filepath.Join(work, file)); string(b) != want {
			t.Errorf("%s is %q, want %q: a tool ran again", file, b, want)
		}
	}
}
