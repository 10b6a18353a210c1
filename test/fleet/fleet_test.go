// Package fleet tests toolpipe on a fleet whose hosts share no disk (issue 26):
// real processes only. `starter dev` is the Temporal server (its own worker on a
// queue nobody else uses), an S3-compatible server (internal/s3test's s3server) is
// the blob store, and three `cmd/worker` processes, each with a state directory
// of its own and nothing in common, are the hosts. The model is the fake Messages
// API on 127.0.0.1.
package fleet

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/proctest"
	"github.com/toolpipe/toolpipe/internal/s3test"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// queue is the fleet's shared task queue.
const queue = "fleet"

// fleet is a running fleet.
type fleet struct {
	t      *testing.T
	ctx    context.Context
	bin    string
	addr   string
	blob   string
	fake   *fakeanthropic.Server
	hosts  []string
	states map[string]string
	c      client.Client
}

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// binaries builds cmd/starter and cmd/worker once per test binary.
func binaries(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "fleet-bin"); buildErr != nil {
			return
		}
		build := exec.Command("go", "build", "-o", binDir+"/", "./cmd/starter", "./cmd/worker")
		build.Dir = repoRoot()
		if out, err := build.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatalf("build: %v", buildErr)
	}
	return binDir
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// startFleet starts the server, the store and one worker per host, each on a state
// directory of its own, taking at most maxSessions sessions.
func startFleet(t *testing.T, script fakeanthropic.Script, maxSessions int, hosts ...string) *fleet {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	t.Cleanup(cancel)
	bin := binaries(t)
	s3 := s3test.StartProcess(t)
	for _, kv := range s3test.Env { // the test's own client of the store
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	fake, err := fakeanthropic.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Close)
	port := freePort(t)
	f := &fleet{t: t, ctx: ctx, bin: bin, addr: fmt.Sprintf("127.0.0.1:%d", port), blob: s3.URL(""), fake: fake,
		hosts: hosts, states: map[string]string{}}
	dev := exec.CommandContext(ctx, filepath.Join(bin, "starter"), "dev", "--state-dir", t.TempDir(), "--port", strconv.Itoa(port),
		"--ui=false", "--task-queue", "dev-only")
	dev.Env = append(os.Environ(), "TEMPORAL_ADDRESS=")
	proctest.StopAtCleanup(t, dev, syscall.SIGTERM)
	waitLine(t, startReading(t, dev, false), "Worker on task queue", 3*time.Minute)
	for _, h := range hosts {
		f.startHost(h, maxSessions)
	}
	// The test's own client reads payloads from the store, as every client of the fleet does.
	store, err := persistence.OpenStore(ctx, f.blob, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	f.c, err = client.Dial(client.Options{HostPort: f.addr, ExternalStorage: persistence.NewBlobPayloadDriver(store).ExternalStorage()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.c.Close)
	return f
}

// startHost starts host's worker on a fresh state directory of its own.
func (f *fleet) startHost(host string, maxSessions int) *exec.Cmd {
	f.t.Helper()
	state := f.t.TempDir()
	f.states[host] = state
	w := exec.CommandContext(f.ctx, filepath.Join(f.bin, "worker"), "--state-dir", state, "--task-queue", queue,
		"--blob-url", f.blob, "--host", host, "--max-sessions", strconv.Itoa(maxSessions))
	w.Env = append(append(os.Environ(), s3test.Env...), "TEMPORAL_ADDRESS="+f.addr, "TEMPORAL_NAMESPACE=default",
		"TOOLPIPE_LOG_LEVEL=error", "ANTHROPIC_API_KEY=sk-fleet-test", "ANTHROPIC_BASE_URL="+f.fake.URL())
	proctest.StopAtCleanup(f.t, w, syscall.SIGTERM)
	waitLine(f.t, startReading(f.t, w, true), "worker: running on", time.Minute)
	return w
}

// Issue 26: a persisted output written on host A is read back by Read on host B,
// which has none of A's files: the path A handed the model resolves from the store.
func TestPersistedOutputWrittenOnOneHostIsReadOnAnother(t *testing.T) {
	f := startFleet(t, fakeanthropic.Script{}, 4, "host-a", "host-b")
	work := t.TempDir()
	big := `for i in $(seq 1 3000); do echo "line $i of the big output"; done; echo MARKER-END`
	res := f.turn("turn-a", contract.HostQueue(queue, "host-a"), work, tool.Block{ID: "toolu_big", Name: "Bash", Input: input(t, map[string]any{"command": big})})
	out := res.Results[0].Content
	if !strings.Contains(out, "<persisted-output>") || !strings.Contains(out, f.states["host-a"]) {
		t.Fatalf("the big output was not persisted on host A: %.400s", out)
	}
	path := persistedPath(t, out)
	if strings.HasPrefix(path, f.states["host-b"]) {
		t.Fatalf("the path %s is host B's", path)
	}
	// The hosts are processes of one machine: host A's files are taken away, as
	// they are out of host B's reach on another machine.
	if err := os.RemoveAll(filepath.Join(f.states["host-a"], "fleet-read")); err != nil {
		t.Fatal(err)
	}
	res = f.turn("turn-b", contract.HostQueue(queue, "host-b"), work, tool.Block{ID: "toolu_read", Name: "Read",
		Input: input(t, map[string]any{"file_path": path, "offset": 2990})})
	got := res.Results[0]
	if got.IsError || !strings.Contains(got.Content, "MARKER-END") {
		t.Fatalf("Read on host B of %s = %+v", path, got)
	}
	if _, err := os.Stat(filepath.Join(f.states["host-b"], "fleet-read", "tool-results", "toolu_big.txt")); err != nil {
		t.Errorf("host B has no copy of the output in its own state directory: %v", err)
	}
}

// Issue 26: 30 concurrent sessions over three hosts of at most 10 sessions each:
// placement spreads them over every host, and all complete, each with its own file.
//
// Slow (about two minutes at load): it runs with TOOLPIPE_FLEET_TEST=1; the
// cross-host read runs with every `go test ./...`.
func TestThirtySessionsSpreadOverThreeHosts(t *testing.T) {
	if os.Getenv("TOOLPIPE_FLEET_TEST") != "1" {
		t.Skip("set TOOLPIPE_FLEET_TEST=1 to run 30 sessions over three worker processes")
	}
	const n, perHost = 30, 10
	var rs []fakeanthropic.Response
	for i := range n {
		name := fmt.Sprintf("s%02d", i)
		rs = append(rs,
			fakeanthropic.Response{When: "prompt-" + name, Content: []wire.Block{{Type: wire.BlockToolUse, ID: "toolu_w" + name, Name: "Write",
				Input: input(t, map[string]any{"file_path": "out-" + name + ".txt", "content": name + "\n"})}}},
			fakeanthropic.Response{When: "out-" + name + ".txt", Content: []wire.Block{wire.TextBlock("done " + name)}},
		)
	}
	f := startFleet(t, fakeanthropic.Script{Responses: rs}, perHost, "host-1", "host-2", "host-3")
	work := t.TempDir()
	runs := make([]client.WorkflowRun, n)
	for i := range n {
		name := fmt.Sprintf("s%02d", i)
		run, err := f.c.ExecuteWorkflow(f.ctx, client.StartWorkflowOptions{ID: "fleet-" + name, TaskQueue: queue}, workflows.SessionWorkflowName,
			workflows.SessionInput{SessionID: "fleet-" + name, Prompt: "prompt-" + name, Workdir: work, Place: true,
				Options: workflows.SessionOptions{MaxTurns: 4}})
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = run
	}
	perHostCount := map[string]int{}
	for i, run := range runs {
		var res workflows.SessionResult
		if err := run.Get(f.ctx, &res); err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		if want := fmt.Sprintf("done s%02d", i); res.Text != want {
			t.Errorf("session %d answered %q, want %q", i, res.Text, want)
		}
		v, err := f.c.QueryWorkflow(f.ctx, run.GetID(), "", workflows.SessionStateQuery)
		if err != nil {
			t.Fatal(err)
		}
		var st workflows.SessionState
		if err := v.Get(&st); err != nil || st.Placement == nil {
			t.Fatalf("session %d has no placement: %v", i, err)
		}
		perHostCount[st.Placement.Host]++
	}
	total := 0
	for _, h := range f.hosts {
		// A host takes at most 10 at once; sessions that end give their room back,
		// so a host may take more over the run, but every host takes some.
		if perHostCount[h] == 0 {
			t.Errorf("host %s took no session (all: %v)", h, perHostCount)
		}
		total += perHostCount[h]
	}
	if total != n {
		t.Errorf("placements %v add up to %d, want %d", perHostCount, total, n)
	}
	for i := range n {
		name := fmt.Sprintf("s%02d", i)
		if b, err := os.ReadFile(filepath.Join(work, "out-"+name+".txt")); err != nil || string(b) != name+"\n" {
			t.Errorf("session %s's file: %q %v", name, b, err)
		}
	}
}

// turn runs one Turn of the session fleet-read with blocks on toolQueue.
func (f *fleet) turn(id, toolQueue, work string, blocks ...tool.Block) workflows.TurnResult {
	f.t.Helper()
	run, err := f.c.ExecuteWorkflow(f.ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, workflows.TurnWorkflowName,
		workflows.TurnInput{SessionID: "fleet-read", Workdir: work, Blocks: blocks, CloseIntake: true, ToolQueue: toolQueue})
	if err != nil {
		f.t.Fatal(err)
	}
	var res workflows.TurnResult
	if err := run.Get(f.ctx, &res); err != nil {
		f.t.Fatalf("turn %s: %v", id, err)
	}
	if len(res.Results) != len(blocks) {
		f.t.Fatalf("turn %s: %d results for %d calls", id, len(res.Results), len(blocks))
	}
	return res
}

func input(t *testing.T, v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// persistedPath is the path of a <persisted-output> stub.
func persistedPath(t *testing.T, stub string) string {
	for _, l := range strings.Split(stub, "\n") {
		if i := strings.Index(l, "/"); i >= 0 && strings.Contains(l, "tool-results") {
			p := strings.TrimSpace(l[i:])
			return strings.TrimRight(p, ".:)")
		}
	}
	t.Fatalf("no path in the stub: %s", stub)
	return ""
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startReading starts cmd and returns its stdout's lines (stderr's when fromStderr).
func startReading(t *testing.T, cmd *exec.Cmd, fromStderr bool) <-chan string {
	var r io.Reader
	var err error
	if fromStderr {
		r, err = cmd.StderrPipe()
	} else {
		cmd.Stderr = os.Stderr
		r, err = cmd.StdoutPipe()
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if fromStderr { // a worker's: shown, as the other processes' stderr is
				fmt.Fprintln(os.Stderr, sc.Text())
			}
			select {
			case lines <- sc.Text():
			default:
			}
		}
		close(lines)
	}()
	return lines
}

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
