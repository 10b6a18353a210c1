package claudesdk

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// exchange is one toolpipe-claude process in the SDK's mode (stream-json in and
// out), driven line by line by a test.
type exchange struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan map[string]any
	stderr *bytes.Buffer
	cwd    string
	model  *fakeModel
}

// startExchange runs toolpipe-claude with the SDK's flags (and extra) against a
// fake model playing script.
func startExchange(t *testing.T, script [][]block, extra ...string) *exchange {
	t.Helper()
	exe := toolpipeClaude(t)
	root := t.TempDir()
	cwd, home := filepath.Join(root, "work"), filepath.Join(root, "home")
	for _, d := range []string{cwd, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	model, url := startFake(t, script)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	args := append([]string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json"}, extra...)
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = cwd
	cmd.Env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "ANTHROPIC_BASE_URL=" + url,
		"ANTHROPIC_API_KEY=sk-ant-sdk-fake"}, toolpipeEnv(t)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	x := &exchange{t: t, cmd: cmd, stdin: stdin, lines: make(chan map[string]any, 256), stderr: &bytes.Buffer{}, cwd: cwd, model: model}
	cmd.Stderr = x.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(x.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = map[string]any{"type": "(not JSON)", "line": sc.Text()}
			}
			x.lines <- m
		}
	}()
	return x
}

func (x *exchange) write(line string) {
	x.t.Helper()
	if _, err := io.WriteString(x.stdin, line+"\n"); err != nil {
		x.t.Fatal(err)
	}
}

// until reads stdout until a line satisfies ok, and returns it; the process
// ending first fails the test.
func (x *exchange) until(what string, ok func(map[string]any) bool) map[string]any {
	x.t.Helper()
	for m := range x.lines {
		if m["type"] == "(not JSON)" {
			x.t.Errorf("stdout line that is not JSON: %v", m["line"])
		}
		if ok(m) {
			return m
		}
	}
	x.t.Fatalf("stdout ended before %s; stderr:\n%s", what, x.stderr)
	return nil
}

func (x *exchange) response(id string) map[string]any {
	x.t.Helper()
	m := x.until("the control_response to "+id, func(m map[string]any) bool {
		r, _ := m["response"].(map[string]any)
		return m["type"] == "control_response" && r["request_id"] == id
	})
	return m["response"].(map[string]any)
}

// TestBadProtocolInput sends toolpipe-claude what the SDK never would — a line
// that is not JSON, a control request of a subtype nobody knows, one with no
// subtype, a control_response to a request never sent, a message type outside the
// protocol — among good lines: each request gets a control_response error naming
// the problem, every other bad line a clear stderr line, and the session goes on
// (the prompt is answered, the process exits when stdin ends).
func TestBadProtocolInput(t *testing.T) {
	x := startExchange(t, [][]block{{text("Still here.")}})
	x.write(`{"request_id":"init1","type":"control_request","request":{"subtype":"initialize"}}`)
	if r := x.response("init1"); r["subtype"] != "success" {
		t.Fatalf("initialize: %v", r)
	}
	x.write(`this is not json`)
	x.write(`{"request_id":"bad1","type":"control_request","request":{"subtype":"no_such_request"}}`)
	if r := x.response("bad1"); r["subtype"] != "error" || !strings.Contains(r["error"].(string), `"no_such_request"`) {
		t.Errorf("an unknown subtype: %v", r)
	}
	x.write(`{"request_id":"bad2","type":"control_request","request":{}}`)
	if r := x.response("bad2"); r["subtype"] != "error" || !strings.Contains(r["error"].(string), "no subtype") {
		t.Errorf("a request without subtype: %v", r)
	}
	x.write(`{"type":"control_response","response":{"subtype":"success","request_id":"never-sent","response":{}}}`)
	x.write(`{"type":"bogus"}`)
	x.write(`{"request_id":"rw","type":"control_request","request":{"subtype":"rewind_files","user_message_id":"x"}}`)
	if r := x.response("rw"); r["subtype"] != "error" || !strings.Contains(r["error"].(string), "not supported") {
		t.Errorf("rewind_files: %v", r)
	}
	x.write(`{"type":"user","session_id":"","message":{"role":"user","content":[{"type":"text","text":"Are you there?"}]},"parent_tool_use_id":null}`)
	res := x.until("the result", func(m map[string]any) bool { return m["type"] == "result" })
	if res["subtype"] != "success" || res["result"] != "Still here." {
		t.Errorf("the prompt after the bad lines: %v", res)
	}
	x.stdin.Close()
	for range x.lines {
	}
	if err := x.cmd.Wait(); err != nil {
		t.Errorf("exit: %v; stderr:\n%s", err, x.stderr)
	}
	stderr := x.stderr.String()
	for _, want := range []string{
		"stdin line 2 is not a JSON object",
		`a control_response for request "never-sent", which toolpipe-claude never sent`,
		`a message of type "bogus" is not part of the protocol`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}
