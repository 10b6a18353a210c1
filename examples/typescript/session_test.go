package typescript

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/wire"
)

// Issue 30 item 4 for TypeScript: a session with checkpoints, run by the Go CLI on
// `starter dev`, is rewound and forked by the TypeScript client (src/session.ts):
// a rewind to before turn 2 brings back the file turn 2 removed, LATEST removes it
// again, a fork at turn 2 gets the files of that point in its own directory and
// names its parent in its memo; a turn the session lacks, a fork onto a session
// that exists, a fork into a directory with files and a bad flag exit 2 with the reason, and change nothing.
func TestTypeScriptClientRewindsAndForks(t *testing.T) {
	here, root := exampleDirs(t)

	work, forkDir, state := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "gone.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{toolUse(t, "w1", "Write", map[string]any{"file_path": filepath.Join(work, "new.txt"), "content": "new\n"})}},
		{Content: []wire.Block{toolUse(t, "w2", "Bash", map[string]any{"command": "rm gone.txt"})}},
		{Content: []wire.Block{wire.TextBlock("two turns done")}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	model := []string{"ANTHROPIC_BASE_URL=" + fake.URL(), "ANTHROPIC_API_KEY=k-ts"}
	scripts := buildClient(t, here)
	addr, bin := startDev(t, root, state, model...)

	agent := exec.Command(bin, "agent", "--session", "c", "--checkpoints", "--workdir", work, "--state-dir", state, "two turns")
	agent.Env = append(append(os.Environ(), "TEMPORAL_ADDRESS="+addr, "TOOLPIPE_LOG_LEVEL=error", "XDG_CONFIG_HOME="+t.TempDir()), model...)
	if out, err := agent.CombinedOutput(); err != nil {
		t.Fatalf("starter agent: %v\n%s", err, out)
	}
	if exists(t, filepath.Join(work, "gone.txt")) || !exists(t, filepath.Join(work, "new.txt")) {
		t.Fatal("after two turns: gone.txt should be removed and new.txt written")
	}

	session := func(args ...string) (int, string, string) {
		t.Helper()
		cmd := exec.Command("node", append([]string{filepath.Join(scripts, "session.js"), "--address", addr}, args...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), string(out), stderr.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, string(out), stderr.String()
	}
	ok := func(args ...string) map[string]any {
		t.Helper()
		code, out, stderr := session(args...)
		if code != 0 {
			t.Fatalf("session %v: exit %d\n%s%s", args, code, out, stderr)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("session %v printed %q: %v", args, out, err)
		}
		return v
	}

	r := ok("rewind", "c", "--to", "2", "--workdir", work, "--by", "ts-test")
	if mark, _ := r["mark"].(map[string]any); mark["turn"] != float64(2) || r["by"] != "ts-test" {
		t.Errorf("rewind to 2 answered %v", r)
	}
	if code, _ := r["code"].(map[string]any); code["checkpoint"] == nil || code["checkpoint"] == "" {
		t.Errorf("rewind to 2 restored no checkpoint: %v", r)
	}
	if b, err := os.ReadFile(filepath.Join(work, "gone.txt")); err != nil || string(b) != "x\n" {
		t.Errorf("before turn 2, gone.txt = %q %v, want the file turn 2 removed", b, err)
	}
	// Without --workdir a rewind of the closed session works in the session's own
	// directory (this process runs in the package's).
	ok("rewind", "c", "--to", "LATEST")
	if exists(t, filepath.Join(work, "gone.txt")) || !exists(t, filepath.Join(work, "new.txt")) {
		t.Error("LATEST did not bring back the end state")
	}

	f := ok("fork", "c", "--at", "2", "--session", "f", "--workdir", forkDir)
	if ws, _ := f["workspace"].(map[string]any); ws == nil || ws["written"] != float64(2) {
		t.Errorf("the fork took %v, want the two files of before turn 2", f)
	}
	for name, want := range map[string]string{"gone.txt": "x\n", "new.txt": "new\n"} {
		if b, err := os.ReadFile(filepath.Join(forkDir, name)); err != nil || string(b) != want {
			t.Errorf("fork's %s = %q %v, want %q", name, b, err, want)
		}
	}
	c, err := client.Dial(client.Options{HostPort: addr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	d, err := c.DescribeWorkflowExecution(context.Background(), "session-f", "")
	if err != nil {
		t.Fatal(err)
	}
	var parent string
	if p := d.GetWorkflowExecutionInfo().GetMemo().GetFields()["parent_session"]; p == nil || json.Unmarshal(p.GetData(), &parent) != nil || parent != "c" {
		t.Errorf("the fork's memo does not name its parent: %v", d.GetWorkflowExecutionInfo().GetMemo())
	}

	for _, bad := range []struct {
		args []string
		says string
	}{
		{[]string{"rewind", "c", "--to", "9", "--workdir", work}, "turn 9"},
		{[]string{"rewind", "c", "--to", "0"}, "turn number from 1"},
		{[]string{"rewind", "c", "--to", "1", "--scope", "files"}, "--scope files"},
		{[]string{"rewind", "c", "--to", "1", "--scope", "code", "--workdir", forkDir}, "works in " + work},
		{[]string{"fork", "c", "--at", "1", "--session", "f", "--workdir", t.TempDir()}, "session f has a conversation already"},
		{[]string{"fork", "c", "--at", "1", "--session", "g", "--workdir", work}, "is not empty"},
		{[]string{"fork", "c", "--at", "1", "--session", "c"}, "its own session id"},
	} {
		code, out, stderr := session(bad.args...)
		if code != 2 || !strings.Contains(stderr, bad.says) {
			t.Errorf("session %v: exit %d, want 2 saying %q\n%s%s", bad.args, code, bad.says, out, stderr)
		}
	}
	if exists(t, filepath.Join(work, "gone.txt")) {
		t.Error("a refused rewind changed the workspace")
	}
}

// toolUse is a tool_use block with input as JSON.
func toolUse(t *testing.T, id, name string, input map[string]any) wire.Block {
	t.Helper()
	b, err := json.Marshal(input)
	if err != nil {
		t.Fatal(err)
	}
	return wire.Block{Type: wire.BlockToolUse, ID: id, Name: name, Input: b}
}

// exists says whether path is there.
func exists(t *testing.T, path string) bool {
	t.Helper()
	_, err := os.Stat(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return err == nil
}
