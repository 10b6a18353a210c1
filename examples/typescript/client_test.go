// Package typescript tests the TypeScript client of docs/CROSS-LANGUAGE.md: a
// program written with the Temporal TypeScript SDK starts a Turn on a running
// `starter dev` and gets the same tool_results the Go CLI would.
package typescript

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/proctest"
	"github.com/toolpipe/toolpipe/internal/testenv"
)

// TestTypeScriptClientRunsATurn needs node and npm (the npm registry installs the
// pinned @temporalio/client); without them it skips, except in CI where they are part
// of the setup and their absence is a failure.
func TestTypeScriptClientRunsATurn(t *testing.T) {
	here, root := exampleDirs(t)

	client := filepath.Join(buildClient(t, here), "start-turn.js")
	addr, _ := startDev(t, root, t.TempDir())

	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "notes.txt"), []byte("alpha\nbeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	msg := `{"role":"assistant","content":[
	  {"type":"text","text":"Reading."},
	  {"type":"tool_use","id":"toolu_ts1","name":"Read","input":{"file_path":"` + filepath.Join(work, "notes.txt") + `"}},
	  {"type":"tool_use","id":"toolu_ts2","name":"Bash","input":{"command":"echo from-bash > made.txt && cat made.txt"}},
	  {"type":"tool_use","id":"toolu_ts3","name":"Frobnicate","input":{}}]}`
	msgFile := filepath.Join(t.TempDir(), "msg.json")
	if err := os.WriteFile(msgFile, []byte(msg), 0o644); err != nil {
		t.Fatal(err)
	}

	run := func() testenv.UserMessage {
		cmd := exec.Command("node", client, "--address", addr, "--workdir", work, "--session", "ts", msgFile)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("start-turn: %v\n%s", err, out)
		}
		return testenv.DecodeUserMessage(t, out)
	}
	m := run()
	if m.Role != "user" || len(m.Content) != 3 {
		t.Fatalf("want a user message with 3 tool_results, got %+v", m)
	}
	for i, id := range []string{"toolu_ts1", "toolu_ts2", "toolu_ts3"} {
		if m.Content[i].ToolUseID != id || m.Content[i].Type != "tool_result" {
			t.Fatalf("result %d: want tool_result for %s (arrival order), got %+v", i, id, m.Content[i])
		}
	}
	if c := m.Content[0]; c.IsError || !strings.Contains(c.Content, "beta") {
		t.Errorf("Read result: %+v", c)
	}
	if c := m.Content[1]; c.IsError || !strings.Contains(c.Content, "from-bash") {
		t.Errorf("Bash result: %+v", c)
	}
	if c := m.Content[2]; !c.IsError || !strings.Contains(c.Content, "No such tool available: Frobnicate") {
		t.Errorf("unknown tool result: %+v", c)
	}

	// The same message again attaches to the finished turn: the Bash call does not run
	// a second time, so the file it writes, removed in between, stays gone.
	if err := os.Remove(filepath.Join(work, "made.txt")); err != nil {
		t.Fatal(err)
	}
	again := run()
	if len(again.Content) != 3 || again.Content[1].Content != m.Content[1].Content {
		t.Fatalf("second run: want the first run's results, got %+v", again)
	}
	if _, err := os.Stat(filepath.Join(work, "made.txt")); !os.IsNotExist(err) {
		t.Fatalf("the second run ran the Bash call again (made.txt exists: %v)", err)
	}
}

// exampleDirs is this example's directory and the repository's root, once node
// and npm are known to be there (needNode).
func exampleDirs(t *testing.T) (here, root string) {
	t.Helper()
	needNode(t)
	_, file, _, _ := runtime.Caller(0)
	here = filepath.Dir(file)
	return here, filepath.Join(here, "..", "..")
}

// needNode skips the test without node and npm, except in CI, where they are part
// of the setup and their absence is a failure.
func needNode(t *testing.T) {
	t.Helper()
	for _, prog := range []string{"node", "npm"} {
		if _, err := exec.LookPath(prog); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not on PATH; .ci/run installs it", prog)
			}
			t.Skipf("%s is not on PATH: the TypeScript client is not checked", prog)
		}
	}
}

// buildClient installs the locked dependencies and compiles the clients in a copy of
// the example (node_modules stays out of the repository) and returns the directory
// of the scripts.
func buildClient(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json", "tsconfig.json", "src/start-turn.ts", "src/session.ts"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"}, {"npx", "tsc", "-p", "."}} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return filepath.Join(dir, "dist")
}

// startDev runs `starter dev` on a free port with the state directory, env added to its environment, and returns its frontend address once its worker is
// up, and the starter binary.
func startDev(t *testing.T, root, state string, env ...string) (addr, bin string) {
	t.Helper()
	bin = filepath.Join(t.TempDir(), "starter")
	build := exec.Command("go", "build", "-o", bin, "./cmd/starter")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build starter: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dev := exec.Command(bin, "dev", "--state-dir", state, "--port", strconv.Itoa(port), "--ui=false")
	dev.Env = append(append(os.Environ(), "TEMPORAL_ADDRESS=", "TOOLPIPE_LOG_LEVEL=error"), env...)
	dev.Stderr = os.Stderr
	proctest.StartDev(t, dev)
	return "127.0.0.1:" + strconv.Itoa(port), bin
}
