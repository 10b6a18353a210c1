package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// TestBadInputOfEveryKindExits2: flags, durations, sessions and ids the state
// directory cannot hold, more tools than a turn takes, a message that is not one
// (a JSON array) or has no tool call, and ids of turns and sessions that do not
// exist are bad input like a malformed message: exit 2, one line saying what was
// wrong, nothing started.
func TestBadInputOfEveryKindExits2(t *testing.T) {
	var many strings.Builder
	many.WriteString(`{"role":"assistant","content":[`)
	for i := range 2001 {
		if i > 0 {
			many.WriteString(",")
		}
		fmt.Fprintf(&many, `{"type":"tool_use","id":"t%d","name":"Read","input":{}}`, i)
	}
	many.WriteString("]}")
	ok := `{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}]}`
	for _, c := range []struct {
		name, stdin, want string
		args              []string
	}{
		{"unknown flag", ok, "unknown flag", []string{"run", "--no-such-flag", "-"}},
		{"bad duration", ok, "heartbeat-timeout", []string{"run", "--heartbeat-timeout", "soon", "-"}},
		{"session with ..", ok, "session", []string{"run", "--session", "a..b", "-"}},
		{"id with ..", `{"role":"assistant","content":[{"type":"tool_use","id":"a..b","name":"Read","input":{}}]}`, "tool_use id", []string{"run", "-"}},
		{"2001 tools", many.String(), "at most 2000", []string{"run", "-"}},
		{"unknown command", "", "unknown command", []string{"frobnicate"}},
		{"mistyped command", "", `"agnet" for "starter"; did you mean agent`, []string{"agnet"}},
		{"argument to gc", "", "gc takes 0 argument", []string{"gc", "now"}},
		{"a JSON array", "[" + ok + "]", "the input is a JSON array, not an assistant message", []string{"run", "-"}},
		{"no tool_use", `{"role":"assistant","content":[{"type":"text","text":"all done"}]}`, "has no tool_use block: there is nothing to run", []string{"run", "-"}},
		{"no tool_use streamed", `{"type":"text","text":"all done"}`, "stdin has no tool_use block", []string{"run", "--stream"}},
		{"unknown session", "", "no session with workflow id session-nosuch", []string{"agent", "status", "nosuch"}},
		{"unknown turn to approve", "", "no turn with workflow id no-such-turn", []string{"approve", "no-such-turn", "toolu_01"}},
		{"unknown workflow", "", "no turn or session with workflow id nosuch", []string{"status", "nosuch"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := starter(t, t.TempDir(), c.args...)
			cmd.Stdin = strings.NewReader(c.stdin)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			var ee *exec.ExitError
			if !errorsAs(err, &ee) || ee.ExitCode() != 2 {
				t.Fatalf("exit: %v, want status 2 (stdout %q, stderr %q)", err, out, stderr.String())
			}
			if !strings.Contains(stderr.String(), c.want) {
				t.Errorf("stderr %q does not name %q", stderr.String(), c.want)
			}
			if strings.Contains(stderr.String(), "main.") || len(out) > 0 {
				t.Errorf("stdout %q, stderr %q: want nothing on stdout and no Go type names", out, stderr.String())
			}
		})
	}
}

// The completion scripts `starter completion SHELL` prints call the hidden
// __complete command; checking commands before Execute must let it through.
func TestShellCompletionAnswers(t *testing.T) {
	cmd := exec.Command(starterBin, "__complete", "ag")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("starter __complete ag: %v (stdout %q)", err, out)
	}
	if !strings.Contains(string(out), "agent") {
		t.Fatalf("completion of 'ag' does not offer agent: %q", out)
	}
}

// approve on a turn that has finished says so (bad input, exit 2): nothing of it
// waits for approval. It said "no turn … already completed".
func TestApproveAFinishedTurnSaysItFinished(t *testing.T) {
	root, state := repoRoot(t), t.TempDir()
	cmd := starter(t, state, "run", "--workdir", root, root+"/examples/turn.json")
	cmd.Dir = root
	_, stderr := output(t, "run", cmd)
	id := strings.Fields(stderr[strings.Index(stderr, "turn turn-"):])[1]
	approve := starter(t, state, "approve", id, "toolu_01")
	var errBuf bytes.Buffer
	approve.Stderr = &errBuf
	err := approve.Run()
	var ee *exec.ExitError
	if !errorsAs(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(errBuf.String(), "turn "+id+" has finished (completed at ") ||
		!strings.Contains(errBuf.String(), "no call of it waits for approval") {
		t.Errorf("approve: %v, stderr %q", err, errBuf.String())
	}
}
