package claudesdk

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The kill-resume program is killed (SIGKILL of toolpipe-claude's process) while
// its Bash call runs, and resumes the session with a second query: the session
// completes, the Bash call is reported interrupted (in its tool_result and in the
// result's toolpipe.interrupted), and its side effect happened once.
func TestKilledMidBashThenResumed(t *testing.T) {
	p := install(t)
	exe := toolpipeClaude(t)
	root := t.TempDir()
	pids := filepath.Join(root, "pids")
	// The SDK runs this wrapper, which notes its pid and becomes toolpipe-claude.
	wrapper := filepath.Join(root, "toolpipe-claude-wrapper")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\necho $$ >> "+pids+"\nexec "+exe+` "$@"`+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sc := scenario{name: "kill-resume", script: [][]block{
		{use("toolu_k1", "Bash", `{"command":"echo ran >> side.txt && touch started && sleep 60","description":"Side effect, then wait"}`)},
		{text("Resumed after the interruption.")},
	}}
	env := toolpipeEnv(t)
	killed := make(chan error, 1)
	go func() { killed <- killWhenStarted(t, root, pids) }()
	o := runScenarioIn(t, p, sc, wrapper, root, env...)
	if err := <-killed; err != nil {
		t.Fatal(err)
	}
	if o.err != nil {
		t.Fatalf("the program failed: %v\nstderr: %s\nstdout: %+v", o.err, o.stderr, o.lines)
	}
	side, err := os.ReadFile(filepath.Join(o.cwd, "side.txt"))
	if err != nil || string(side) != "ran\n" {
		t.Fatalf("the side effect must have happened once: %q %v", side, err)
	}
	var sawKill bool
	var result map[string]any
	var interrupted string
	for _, l := range o.lines {
		switch l.Kind {
		case "killed":
			sawKill = true
		case "message":
			var m struct {
				Type    string `json:"type"`
				Message struct {
					Content []struct {
						Type      string `json:"type"`
						ToolUseID string `json:"tool_use_id"`
						Content   string `json:"content"`
					} `json:"content"`
				} `json:"message"`
			}
			_ = json.Unmarshal(l.Message, &m)
			if m.Type == "user" && len(m.Message.Content) > 0 && m.Message.Content[0].ToolUseID == "toolu_k1" {
				interrupted = m.Message.Content[0].Content
			}
			if m.Type == "result" && sawKill {
				_ = json.Unmarshal(l.Message, &result)
			}
		}
	}
	if !sawKill {
		t.Fatalf("the first query was not killed: %+v", o.lines)
	}
	if !strings.Contains(interrupted, "interrupted: the worker running this tool was lost") {
		t.Fatalf("the resumed session must report the Bash call interrupted, got %q\nstderr: %s", interrupted, o.stderr)
	}
	if result == nil || result["subtype"] != "success" || result["result"] != "Resumed after the interruption." {
		t.Fatalf("the resumed query's result: %v\nstderr: %s", result, o.stderr)
	}
	tp, _ := result["toolpipe"].(map[string]any)
	calls, _ := tp["interrupted"].([]any)
	if len(calls) != 1 || calls[0].(map[string]any)["tool_use_id"] != "toolu_k1" {
		t.Fatalf("the result must say what was interrupted: %v", tp)
	}
	reqs := o.model.agentRequests()
	if len(reqs) != 2 {
		t.Fatalf("the model must be called twice (before the kill, after the resume), got %d", len(reqs))
	}
}

// killWhenStarted waits for the Bash call's marker file, then SIGKILLs the
// toolpipe-claude process that runs it (the first pid the wrapper noted).
func killWhenStarted(t *testing.T, root, pids string) error {
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(filepath.Join(root, "work", "started")); err == nil {
			b, err := os.ReadFile(pids)
			if err != nil {
				return err
			}
			pid, err := strconv.Atoi(strings.Fields(string(b))[0])
			if err != nil {
				return err
			}
			return syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return os.ErrDeadlineExceeded
}
