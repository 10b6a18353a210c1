package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/sdk/converter"

	"github.com/toolpipe/toolpipe/connect"
	"github.com/toolpipe/toolpipe/searchattr"
	tpworker "github.com/toolpipe/toolpipe/worker"
	"github.com/toolpipe/toolpipe/workflows"
)

// gatedMessage has a command that prints a line and then waits on the FIFO gate
// (in the working directory, where newGate makes it) until the test has seen the progress display show it running (and, on a
// terminal, its output), a quick Glob, and a failing command that must wait for the
// first one. The gate makes the test follow events, not the display's poll timing.
const gatedMessage = `{"role":"assistant","content":[
{"type":"tool_use","id":"toolu_a","name":"Bash","input":{"command":"echo step 1; read _ <gate; echo step 2"}},
{"type":"tool_use","id":"toolu_b","name":"Glob","input":{"pattern":"*.go"}},
{"type":"tool_use","id":"toolu_c","name":"Bash","input":{"command":"mkdir -p made; false"}}]}`

// gate is a FIFO the gated command reads: open releases it.
type gate struct{ path string }

func newGate(t *testing.T, dir string) gate {
	t.Helper()
	path := filepath.Join(dir, "gate")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	return gate{path}
}

// openWhenSeen releases the gate once w has seen every one of want, from a
// goroutine (opening a FIFO blocks until its reader opens it). The returned
// function, called after the command ended, unblocks that goroutine should the
// command have ended without reading the gate, and says whether all was seen.
func (g gate) openWhenSeen(w *watchWriter, want ...string) (finish func() bool) {
	seen := make(chan bool, 1)
	opened := make(chan struct{})
	go func() {
		defer close(opened)
		ok := w.await(2*time.Minute, want...)
		seen <- ok
		if f, err := os.OpenFile(g.path, os.O_WRONLY, 0); err == nil {
			f.WriteString("go\n")
			f.Close()
		}
	}()
	return func() bool {
		w.stop()
		select {
		case <-opened:
		default:
			// Nobody reads the gate: open it for reading so that the writer's open returns.
			if r, err := os.OpenFile(g.path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				<-opened
				r.Close()
			}
		}
		return <-seen
	}
}

// watchWriter keeps what a command writes and lets a test wait until a text
// appears in it.
type watchWriter struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{} // closed and replaced on every write
	done    bool
}

func newWatchWriter() *watchWriter { return &watchWriter{changed: make(chan struct{})} }

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	close(w.changed)
	w.changed = make(chan struct{})
	return len(p), nil
}

// stop wakes an await that waits for text that will never come.
func (w *watchWriter) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done = true
	close(w.changed)
	w.changed = make(chan struct{})
}

func (w *watchWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// await waits until every one of want has been written, the writer stopped, or the
// deadline passed; it reports whether all were seen.
func (w *watchWriter) await(deadline time.Duration, want ...string) bool {
	timeout := time.After(deadline)
	for {
		w.mu.Lock()
		all := true
		for _, s := range want {
			all = all && strings.Contains(w.buf.String(), s)
		}
		changed, done := w.changed, w.done
		w.mu.Unlock()
		if all || done {
			return all
		}
		select {
		case <-changed:
		case <-timeout:
			return false
		}
	}
}

func writeMessage(t *testing.T, msg string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "msg.json")
	if err := os.WriteFile(path, []byte(msg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Off a terminal, progress is plain appended lines. Afterwards, what the Temporal UI
// shows of the turn is read back through the API: the static summary and details
// set at start, the current details kept by the workflow, the activity summaries
// and the search attributes.
func TestRunProgressAndUIMetadata(t *testing.T) {
	state, work := t.TempDir(), t.TempDir()
	g := newGate(t, work)
	cmd := starter(t, state, "run", "--workdir", work, writeMessage(t, gatedMessage))
	var stdout bytes.Buffer
	stderr := newWatchWriter()
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	running := "  toolu_a Bash(echo step 1; read _ <gate; echo step 2): executing"
	finish := g.openWhenSeen(stderr, running)
	err := cmd.Run()
	if !finish() {
		t.Errorf("the gated command was never shown executing:\n%s", stderr.String())
	}
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	if m := decode(t, stdout.Bytes()); len(m.Content) != 3 {
		t.Fatalf("results: %s", stdout.String())
	}
	errOut := stderr.String()
	for _, want := range []string{
		running,
		"  toolu_a Bash(echo step 1; read _ <gate; echo step 2): done", // a time follows only from 50 ms on
		"  toolu_b Glob(*.go): done",
		"  toolu_c Bash(mkdir -p made; false): error",
		": Exit code 1\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "\x1b") {
		t.Errorf("escape sequences on a stderr that is not a terminal:\n%q", errOut)
	}

	// The turn's server stopped with the command: start it again on the same state
	// directory, with a worker, which the metadata query needs.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	conn, err := connect.Dial(ctx, connect.Options{StateDir: state, Logger: quiet, Mode: connect.Embedded})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	id := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(errOut, "\n", 2)[0], "turn "))
	d, err := conn.Client.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		t.Fatalf("describe %q: %v", id, err)
	}
	// The turn ran on its starter's own task queue (queues.go).
	w, err := tpworker.Start(tpworker.Config{Client: conn.Client, TaskQueue: d.GetExecutionConfig().GetTaskQueue().GetName(), StateDir: state, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	dc := converter.GetDefaultDataConverter()
	var summary, details, status, session string
	md := d.GetExecutionConfig().GetUserMetadata()
	_ = dc.FromPayload(md.GetSummary(), &summary)
	_ = dc.FromPayload(md.GetDetails(), &details)
	if summary != "Turn of session default: 3 tool call(s)" || !strings.Contains(details, "- `toolu_c` `Bash(mkdir -p made; false)`") {
		t.Errorf("static summary %q, details:\n%s", summary, details)
	}
	sa := d.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields()
	_ = dc.FromPayload(sa[searchattr.Status], &status)
	_ = dc.FromPayload(sa[searchattr.SessionID], &session)
	if status != workflows.StatusDone || session != "default" {
		t.Errorf("search attributes: status %q, session %q", status, session)
	}

	v, err := conn.Client.QueryWorkflow(ctx, id, "", "__temporal_workflow_metadata")
	if err != nil {
		t.Fatal(err)
	}
	var meta sdkpb.WorkflowMetadata
	if err := v.Get(&meta); err != nil {
		t.Fatal(err)
	}
	if cur := meta.GetCurrentDetails(); !strings.Contains(cur, "**3 tool call(s)** · 2 done · 1 error") ||
		!strings.Contains(cur, "| 3 | `toolu_c` | `Bash(mkdir -p made; false)` | error |") {
		t.Errorf("current details:\n%s", cur)
	}

	var summaries []string
	iter := conn.Client.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		if ev.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED {
			var s string
			_ = dc.FromPayload(ev.GetUserMetadata().GetSummary(), &s)
			summaries = append(summaries, s)
		}
	}
	want := "Bash: `echo step 1; read _ <gate; echo step 2`|Glob: `*.go`|Bash: `mkdir -p made; false`"
	if strings.Join(summaries, "|") != want {
		t.Errorf("activity summaries %q, want %q", summaries, want)
	}
}

// On a terminal (a pseudo-terminal from util-linux's script), the frame is redrawn
// in place and shows the running command's last line of output.
func TestRunProgressOnTerminal(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("needs script(1) from util-linux for a pseudo-terminal")
	}
	state, work := t.TempDir(), t.TempDir()
	g := newGate(t, work)
	run := starter(t, state, "run", "--workdir", work, writeMessage(t, gatedMessage))
	quoted := make([]string, len(run.Args))
	for i, a := range run.Args {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	cmd := exec.Command(script, "-qfec", strings.Join(quoted, " "), "/dev/null")
	cmd.Env = append(run.Env, "TERM=xterm")
	out := newWatchWriter()
	cmd.Stdout, cmd.Stderr = out, out
	// Released only once a frame was redrawn in place and shows the running
	// command's output line: the result, which also holds it, is printed after.
	finish := g.openWhenSeen(out, "\x1b[3A\r\x1b[2K", "▸ executing", "step 1")
	err = cmd.Run()
	if !finish() {
		t.Errorf("no redrawn frame showed the running command's output:\n%q", out.String())
	}
	if err != nil {
		t.Fatalf("run on a terminal: %v\n%q", err, out.String())
	}
	got := out.String()
	for _, want := range []string{"✓ done", "✗ error", `"tool_use_id":"toolu_c"`} {
		if !strings.Contains(got, want) {
			t.Errorf("terminal output lacks %q:\n%q", want, got)
		}
	}
}
