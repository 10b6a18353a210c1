package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolpipe/toolpipe/internal/proctest"
	"github.com/toolpipe/toolpipe/internal/testenv"
)

// withUI is a starter command that serves the Web UI on uiPort (starter() turns
// the UI off so that tests never share its port; these tests do on purpose).
func withUI(t *testing.T, stateDir string, uiPort int, args ...string) *exec.Cmd {
	cmd := exec.Command(starterBin, append(args, "--state-dir", stateDir, "--ui-port", fmt.Sprint(uiPort))...)
	cmd.Env = append(os.Environ(), "TEMPORAL_ADDRESS=", "TOOLPIPE_LOG_LEVEL=error")
	return cmd
}

// freePort is a port of 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Two starters on two state directories, started at the same moment with the same
// UI port, both complete, and stdout holds nothing but the result: one serves the
// UI, the other says on stderr that the port is taken. ui-server's own logger
// printed FATAL on stdout and exited one of them, 7 times out of 7.
func TestTwoStartersStartedTogetherBothComplete(t *testing.T) {
	root := repoRoot(t)
	for round := range 2 {
		port := freePort(t)
		var wg sync.WaitGroup
		outs, errs := make([][]byte, 2), make([]string, 2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := withUI(t, t.TempDir(), port, "run", "--workdir", root, filepath.Join(root, "examples", "turn.json"))
				cmd.Dir = root
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					t.Errorf("round %d, starter %d: %v\nstdout:\n%s\nstderr:\n%s", round, i, err, out, stderr.String())
				}
				outs[i], errs[i] = out, stderr.String()
			}()
		}
		wg.Wait()
		if t.Failed() {
			return
		}
		served, taken := 0, 0
		for i := range 2 {
			testenv.CheckExampleTurn(t, root, outs[i]) // decodes the whole of stdout
			if strings.Count(string(outs[i]), "\n") != 1 {
				t.Errorf("stdout holds more than the result:\n%s", outs[i])
			}
			if strings.Contains(errs[i], fmt.Sprintf("Web UI: http://127.0.0.1:%d/", port)) {
				served++
			}
			if strings.Contains(errs[i], fmt.Sprintf("Web UI: none: port %d on 127.0.0.1 is taken", port)) {
				taken++
			}
		}
		if served != 1 || taken != 1 {
			t.Errorf("round %d: %d served the UI and %d said its port was taken, want 1 and 1:\n%s\n%s", round, served, taken, errs[0], errs[1])
		}
	}
}

// devLines runs `starter dev` until it is ready and returns what it printed.
func devLines(t *testing.T, dev *exec.Cmd) []string {
	t.Helper()
	stdout, err := dev.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr proctest.LockedBuffer
	dev.Stderr = &stderr
	if err := dev.Start(); err != nil {
		t.Fatal(err)
	}
	proctest.StopAtCleanup(t, dev, os.Interrupt)
	var lines []string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.HasPrefix(sc.Text(), "Worker on task queue") {
			go func() {
				for sc.Scan() {
				}
			}()
			return lines
		}
	}
	t.Fatalf("dev ended before it was ready:\n%s\n%s", strings.Join(lines, "\n"), stderr.String())
	return nil
}

// `starter dev` says when it serves no Web UI and why (its port taken), and when it
// uses the server another process runs on the state directory instead of --port.
func TestDevSaysWhyItServesNoUI(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	state := t.TempDir()
	lines := devLines(t, withUI(t, state, port, "dev", "--port", "0"))
	if want := fmt.Sprintf("Web UI: none: port %d on 127.0.0.1 is taken (", port); len(lines) < 2 || !strings.HasPrefix(lines[1], want) {
		t.Errorf("dev printed %q, want a line starting %q", lines, want)
	}

	// A second dev on the same state directory uses the first one's server.
	again := devLines(t, withUI(t, state, freePort(t), "dev", "--port", "0", "--task-queue", "second"))
	if len(again) < 2 || !strings.Contains(again[0], "the embedded server process ") || !strings.Contains(again[0], "dev uses it (not --port 0)") ||
		!strings.HasPrefix(again[1], "Web UI: none: the embedded server of process ") {
		t.Errorf("the second dev printed %q, want it to say it uses the other process's server, which serves no UI", again)
	}
}
