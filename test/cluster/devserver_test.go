package cluster

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/proctest"
	"github.com/toolpipe/toolpipe/internal/testenv"
)

// TestWorkerProcessesAgainstStarterDev is the cluster path without Docker or root,
// so it runs with every `go test ./...`: `starter dev` is the separate server (its
// own worker on another task queue), two `cmd/worker` processes connect to it
// through TEMPORAL_ADDRESS, and `starter run` with TEMPORAL_ADDRESS runs no worker
// of its own. The example turn must come back right, and every tool activity must
// have been started by one of the two worker processes (the identity in history).
func TestWorkerProcessesAgainstStarterDev(t *testing.T) {
	root := repoRoot()
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+"/", "./cmd/starter", "./cmd/worker")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	state := t.TempDir()
	port := freePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)

	dev := exec.CommandContext(ctx, filepath.Join(bin, "starter"), "dev", "--state-dir", state, "--port", strconv.Itoa(port),
		"--ui=false", "--task-queue", "dev-only")
	dev.Env = append(os.Environ(), "TEMPORAL_ADDRESS=")
	proctest.StopAtCleanup(t, dev, syscall.SIGTERM)
	lines := startReading(t, dev)
	waitLine(t, lines, "Worker on task queue", 3*time.Minute)

	env := append(os.Environ(), "TEMPORAL_ADDRESS="+addr, "TEMPORAL_NAMESPACE=default", "TOOLPIPE_LOG_LEVEL=error")
	pids := map[int]bool{}
	for range 2 {
		w := exec.CommandContext(ctx, filepath.Join(bin, "worker"), "--state-dir", state)
		w.Env = env
		proctest.StopAtCleanup(t, w, syscall.SIGTERM)
		wl := startReadingStderr(t, w)
		waitLine(t, wl, "worker: running on", time.Minute)
		pids[w.Process.Pid] = true
	}

	run := exec.CommandContext(ctx, filepath.Join(bin, "starter"), "run", "--state-dir", state, "--workdir", root,
		"--session", "cluster-dev", filepath.Join(root, "examples", "turn.json"))
	run.Env = env
	var stderr bytes.Buffer
	run.Stderr = &stderr
	out, err := run.Output()
	if err != nil {
		t.Fatalf("starter run: %v\n%s", err, stderr.String())
	}
	testenv.CheckExampleTurn(t, root, out)

	c, err := client.Dial(client.Options{HostPort: addr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	id := ""
	for _, l := range strings.Split(stderr.String(), "\n") {
		if f, ok := strings.CutPrefix(l, "turn "); ok && strings.HasPrefix(f, "turn-") {
			id = strings.Fields(f)[0]
		}
	}
	if id == "" {
		t.Fatalf("starter run named no turn:\n%s", stderr.String())
	}
	started := 0
	for _, ev := range testenv.History(t, c, id, "") {
		if ev.GetEventType() != enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED {
			continue
		}
		started++
		identity := ev.GetActivityTaskStartedEventAttributes().GetIdentity()
		pid, _ := strconv.Atoi(strings.SplitN(identity, "@", 2)[0])
		if !pids[pid] {
			t.Errorf("an activity ran in %q, not in one of the worker processes %v", identity, pids)
		}
	}
	if started == 0 {
		t.Error("no activity started in the turn's history")
	}
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func startReading(t *testing.T, cmd *exec.Cmd) <-chan string {
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	return readLines(t, cmd, out)
}

func startReadingStderr(t *testing.T, cmd *exec.Cmd) <-chan string {
	errOut, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	return readLines(t, cmd, errOut)
}

func readLines(t *testing.T, cmd *exec.Cmd, r io.Reader) <-chan string {
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
		close(lines)
	}()
	return lines
}

// waitLine waits for the process to print a line containing want.
func waitLine(t *testing.T, lines <-chan string, want string, limit time.Duration) {
	t.Helper()
	deadline := time.After(limit)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the process exited before printing %q", want)
			}
			if strings.Contains(l, want) {
				return
			}
		case <-deadline:
			t.Fatalf("no %q within %v", want, limit)
		}
	}
}
