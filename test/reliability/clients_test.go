package reliability

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/internal/testenv"
)

// message is an assistant message of Bash calls, id -> command, in order.
func message(t *testing.T, calls ...[2]string) string {
	t.Helper()
	var content []map[string]any
	for _, c := range calls {
		content = append(content, map[string]any{"type": "tool_use", "id": c[0], "name": "Bash", "input": map[string]any{"command": c[1]}})
	}
	b, err := json.Marshal(map[string]any{"role": "assistant", "content": content})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "msg.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestManyStartersOneStateDir runs 10 `starter run` invocations on one state
// directory with overlapping lifetimes, each with a Bash call that lasts until the
// next one's has started: each starts once the one before it has its tool
// running, so the first one (whose process started the embedded server) ends
// while the others' tools run. Each process runs
// only its own turn, on its own task queue, and another client takes the server over
// when its process exits: all complete, none is cancelled, each tool runs once.
func TestManyStartersOneStateDir(t *testing.T) {
	const n = 10
	state, work := t.TempDir(), t.TempDir()
	type outcome struct {
		out, stderr bytes.Buffer
		err         error
	}
	outs := make([]*outcome, n)
	var wg sync.WaitGroup
	begin := time.Now()
	for i := range n {
		wait := fmt.Sprintf("until [ -e started-%d ]; do sleep 0.05; done; ", i+1) // the next tool runs
		if i == n-1 {
			wait = ""
		}
		msg := message(t, [2]string{fmt.Sprintf("toolu_%02d", i),
			fmt.Sprintf("echo ran >> count-%d; touch started-%d; %secho done-%d", i, i, wait, i)})
		cmd := starterCmd(t, state, "run", "--workdir", work, "--session", fmt.Sprintf("s%d", i), msg)
		o := &outcome{}
		outs[i] = o
		cmd.Stdout, cmd.Stderr = &o.out, &o.stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		wg.Add(1)
		go func() { defer wg.Done(); o.err = cmd.Wait(); close(exited) }()
		poll(t, fmt.Sprintf("tool %d to start", i), 2*time.Minute, func() bool {
			select {
			case <-exited:
				return true // it failed early: the checks below say how
			default:
			}
			_, err := os.Stat(filepath.Join(work, fmt.Sprintf("started-%d", i)))
			return err == nil
		})
	}
	wg.Wait()
	t.Logf("%d overlapping starters: %v", n, time.Since(begin).Round(time.Second))
	defer func() {
		if t.Failed() {
			logServerTrouble(t, state)
		}
	}()
	for i, o := range outs {
		if o.err != nil {
			t.Errorf("starter %d: %v\n%s", i, o.err, o.stderr.String())
			continue
		}
		var m testenv.UserMessage
		if err := json.Unmarshal(o.out.Bytes(), &m); err != nil {
			t.Errorf("starter %d: stdout is not a user message: %v\n%s", i, err, o.out.String())
			continue
		}
		want := fmt.Sprintf("done-%d", i)
		if len(m.Content) != 1 || m.Content[0].IsError || m.Content[0].Content != want {
			t.Errorf("starter %d: %+v, want %q\n%s", i, m.Content, want, o.stderr.String())
		}
		if b, _ := os.ReadFile(filepath.Join(work, fmt.Sprintf("count-%d", i))); strings.Count(string(b), "ran") != 1 {
			t.Errorf("tool %d ran %d times", i, strings.Count(string(b), "ran"))
		}
	}
}

// TestReusedIDWithAnotherMessage: tool_use ids name a turn within a session, so a
// different message that reuses them (toolu_01, as in the README's example) must be
// refused (exit 2, saying why), never answered with the first message's results;
// the same message again attaches and runs nothing twice.
func TestReusedIDWithAnotherMessage(t *testing.T) {
	state, work := t.TempDir(), t.TempDir()
	first := message(t, [2]string{"toolu_01", "echo first >> log; echo first"})
	other := message(t, [2]string{"toolu_01", "echo other >> log; echo other"})
	run := func(msg string) ([]byte, string, int) {
		cmd := starterCmd(t, state, "run", "--workdir", work, msg)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, _ := cmd.Output()
		return out, stderr.String(), cmd.ProcessState.ExitCode()
	}
	out, stderr, code := run(first)
	if code != 0 || !strings.Contains(string(out), `"content":"first"`) {
		t.Fatalf("first message: exit %d, %s\n%s", code, out, stderr)
	}
	out, stderr, code = run(other)
	if code != 2 {
		t.Errorf("another message with the same ids: exit %d, want 2; stdout %s", code, out)
	}
	if !strings.Contains(stderr, "different message") || !strings.Contains(stderr, "toolu_01") {
		t.Errorf("the refusal does not say why: %q", stderr)
	}
	out, stderr, code = run(first)
	if code != 0 || !strings.Contains(string(out), `"content":"first"`) {
		t.Errorf("the first message again: exit %d, %s\n%s", code, out, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "log")); string(b) != "first\n" {
		t.Errorf("log %q: want the first message's call, once", b)
	}
}
