package reliability

import (
	"bufio"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// workerEnv, when set, makes the test binary a toolpipe worker process instead of
// running tests: "address|namespace|task queue|state dir". Tests that kill a worker
// with SIGKILL need it in a process of its own; re-executing the test binary saves
// building cmd/worker.
const workerEnv = "TOOLPIPE_RELIABILITY_WORKER"

// graceEnv, in a worker process, is its shutdown grace (a duration).
const graceEnv = "TOOLPIPE_RELIABILITY_GRACE"

// fullEnv turns on the heavy variants.
const fullEnv = "TOOLPIPE_RELIABILITY_FULL"

func TestMain(m *testing.M) {
	if spec := os.Getenv(workerEnv); spec != "" {
		os.Exit(runWorkerProcess(spec))
	}
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// runWorkerProcess is the worker subprocess: a real toolpipe worker (the one
// cmd/worker starts) on the test's server, until SIGTERM or SIGKILL.
func runWorkerProcess(spec string) int {
	f := strings.Split(spec, "|")
	if len(f) != 4 {
		fmt.Fprintln(os.Stderr, "worker process: bad", workerEnv, spec)
		return 2
	}
	d, err := persistence.NewPayloadDriver(filepath.Join(f[3], "payloads"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker process:", err)
		return 1
	}
	// Logs go to stderr, quietly: stdout carries the "ready" line.
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	c, err := client.Dial(client.Options{HostPort: f[0], Namespace: f[1], ExternalStorage: d.ExternalStorage(),
		Logger: sdklog.NewStructuredLogger(log)})
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker process:", err)
		return 1
	}
	defer c.Close()
	var grace time.Duration
	if g := os.Getenv(graceEnv); g != "" {
		grace, _ = time.ParseDuration(g)
	}
	// stdout is one line per event, for the test to wait on: "ready", then "swept N".
	var out sync.Mutex
	say := func(line string) { out.Lock(); fmt.Println(line); out.Unlock() }
	ready := make(chan struct{})
	var w sdkworker.Worker
	if url := os.Getenv(agentEnv); url != "" {
		w, err = agentWorker(c, f[2], f[3], url) // wakeup_test.go
	} else {
		w, err = plugin.Start(plugin.Config{Client: c, TaskQueue: f[2], StateDir: f[3], Logger: log, ShutdownGrace: grace,
			Swept: func(n int) { <-ready; say(fmt.Sprintf("swept %d", n)) }})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker process:", err)
		return 1
	}
	say("ready")
	close(ready)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	w.Stop()
	return 0
}

func full() bool { return os.Getenv(fullEnv) == "1" }

// env is a task queue with its state directory and a client whose payloads over
// Temporal's limits go to the state directory, as toolpipe's clients do.
type env struct {
	t     *testing.T
	c     client.Client
	queue string
	state string
}

func newEnv(t *testing.T) *env {
	state := t.TempDir()
	return &env{t: t, c: testenv.StorageClient(t, filepath.Join(state, "payloads")), queue: testenv.TaskQueue(t), state: state}
}

// inProcessWorker runs the real toolpipe worker registration in this process.
func (e *env) inProcessWorker() {
	acts, err := activities.New(activities.Config{StateDir: e.state})
	if err != nil {
		e.t.Fatal(err)
	}
	testenv.StartWorkerWith(e.t, e.c, e.queue, func(r sdkworker.Registry) { plugin.Register(r, acts) })
}

// workerProc is a worker subprocess.
type workerProc struct {
	cmd *exec.Cmd
	out *bufio.Reader
}

// next reads the worker's next stdout line ("swept N" after "ready").
func (p *workerProc) next(t *testing.T) string {
	t.Helper()
	line, err := p.out.ReadString('\n')
	if err != nil {
		t.Fatalf("worker process: reading its output: %v", err)
	}
	return strings.TrimSuffix(line, "\n")
}

// startWorkerProcess starts a worker process and returns once it polls.
func (e *env) startWorkerProcess() *workerProc {
	e.t.Helper()
	srv := testenv.Server()
	return e.startWorkerProcessAt(srv.GetFrontendHostPort(), srv.GetDefaultNamespace())
}

// startWorkerProcessAt starts a worker process on the server at addr.
func (e *env) startWorkerProcessAt(addr, namespace string) *workerProc {
	e.t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"="+strings.Join([]string{addr, namespace, e.queue, e.state}, "|"))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	p := &workerProc{cmd: cmd, out: bufio.NewReader(out)}
	e.t.Cleanup(p.kill)
	line, err := p.out.ReadString('\n')
	if err != nil || line != "ready\n" {
		e.t.Fatalf("worker process did not start: %q %v", line, err)
	}
	return p
}

// kill sends SIGKILL and reaps the process; a second kill is a no-op.
func (p *workerProc) kill() {
	if p.cmd.ProcessState != nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	_ = p.cmd.Wait()
}

// peakRSS is the process's peak resident set (VmHWM) in bytes.
func (p *workerProc) peakRSS(t *testing.T) int64 { return p.status(t, "VmHWM:") }

// status reads a size field (in kB) of the process's /proc status, in bytes.
func (p *workerProc) status(t *testing.T, field string) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == field {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb * 1024
		}
	}
	t.Fatalf("no %s in /proc status", field)
	return 0
}

// start starts a Turn.
func (e *env) start(id string, in workflows.TurnInput) client.WorkflowRun {
	e.t.Helper()
	if in.SessionID == "" {
		in.SessionID = "s"
	}
	run, err := e.c.ExecuteWorkflow(testenv.Context(e.t), client.StartWorkflowOptions{
		ID: e.queue + "-" + id, TaskQueue: e.queue,
	}, contract.TurnWorkflowName, in)
	if err != nil {
		e.t.Fatalf("start turn %s: %v", id, err)
	}
	return run
}

// run runs a whole turn of blocks in workdir and returns its result.
func (e *env) run(id, workdir string, blocks ...tool.Block) workflows.TurnResult {
	e.t.Helper()
	var res workflows.TurnResult
	if err := e.start(id, workflows.TurnInput{Workdir: workdir, Blocks: blocks, CloseIntake: true}).Get(testenv.Context(e.t), &res); err != nil {
		e.t.Fatalf("turn %s: %v", id, err)
	}
	return res
}

// healthy runs an ordinary turn: the worker still works after what came before.
func (e *env) healthy() {
	e.t.Helper()
	res := e.run(fmt.Sprintf("healthy-%d", time.Now().UnixNano()), e.t.TempDir(), bash("ok", "echo still working"))
	if len(res.Results) != 1 || res.Results[0].IsError || res.Results[0].Content != "still working" {
		e.t.Fatalf("the worker no longer runs ordinary turns: %+v", res.Results)
	}
}

func raw(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func bash(id, cmd string) tool.Block {
	return tool.Block{ID: id, Name: tool.BashName, Input: raw(map[string]any{"command": cmd})}
}

func byID(rs []tool.Result, id string) (tool.Result, bool) {
	for _, r := range rs {
		if r.ToolUseID == id {
			return r, true
		}
	}
	return tool.Result{}, false
}

// poll waits for a condition outside this process (another process's files or
// processes), which sends no event to wait on.
func poll(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
