package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// TestBadInputOfEveryKindExits2: flags, durations, sessions and ids the state
// directory cannot hold, and more tools than a turn takes are bad input like a
// malformed message: exit 2, one line saying what was wrong, nothing started.
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
