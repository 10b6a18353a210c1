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
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/sdk/converter"

	tpworker "github.com/toolpipe/toolpipe/worker"
	"github.com/toolpipe/toolpipe/workflows"
)

// slowMessage has a command that prints for about two seconds (long enough for the
// progress display to see it run and read its output), a quick Glob and a failing
// command that must wait for the first one.
const slowMessage = `{"role":"assistant","content":[
{"type":"tool_use","id":"toolu_a","name":"Bash","input":{"command":"for i in 1 2 3 4 5 6 7 8; do echo step $i; sleep 0.3; done"}},
{"type":"tool_use","id":"toolu_b","name":"Glob","input":{"pattern":"*.go"}},
{"type":"tool_use","id":"toolu_c","name":"Bash","input":{"command":"mkdir -p made; false"}}]}`

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
	cmd := starter(t, state, "run", "--workdir", work, writeMessage(t, slowMessage))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	if m := decode(t, stdout.Bytes()); len(m.Content) != 3 {
		t.Fatalf("results: %s", stdout.String())
	}
	errOut := stderr.String()
	for _, want := range []string{
		"  toolu_a Bash(for i in 1 2 3 4 5 6 7 8; do echo step $…): executing",
		"  toolu_a Bash(for i in 1 2 3 4 5 6 7 8; do echo step $…): done ",
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
	conn, err := tpworker.Connect(ctx, tpworker.ConnectOptions{StateDir: state, Logger: quiet, Mode: tpworker.Embedded})
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
	_ = dc.FromPayload(sa[workflows.SearchAttributeStatus], &status)
	_ = dc.FromPayload(sa[workflows.SearchAttributeSessionID], &session)
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
	want := "Bash: `for i in 1 2 3 4 5 6 7 8; do echo step $i; sleep 0.3; done`|Glob: `*.go`|Bash: `mkdir -p made; false`"
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
	run := starter(t, state, "run", "--workdir", work, writeMessage(t, slowMessage))
	quoted := make([]string, len(run.Args))
	for i, a := range run.Args {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	cmd := exec.Command(script, "-qfec", strings.Join(quoted, " "), "/dev/null")
	cmd.Env = append(run.Env, "TERM=xterm")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("run on a terminal: %v\n%q", err, out.String())
	}
	got := out.String()
	for _, want := range []string{"\x1b[3A\r\x1b[2K", "▸ executing", "step ", "✓ done", "✗ error", `"tool_use_id":"toolu_c"`} {
		if !strings.Contains(got, want) {
			t.Errorf("terminal output lacks %q:\n%q", want, got)
		}
	}
}
