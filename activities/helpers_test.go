package activities

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/tool"
)

func newActs(t *testing.T) *Activities {
	t.Helper()
	a, err := New(Config{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func call(t testing.TB, name, workdir string, input any, readFiles ...string) tool.Call {
	t.Helper()
	raw, err := json.Marshal(input)
	if err != nil {
		t.Fatal(err)
	}
	return tool.Call{SessionID: "s1", ToolUseID: "toolu_" + strings.ReplaceAll(t.Name(), "/", "_"), Name: name, Input: raw, Workdir: workdir, ReadFiles: readFiles}
}

// eventually polls cond until it holds or 10s pass: for conditions outside the
// process (another process's state), which have no event to wait on.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	var pid int
	eventually(t, "pid file "+path, func() bool {
		b, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil
	})
	return pid
}
