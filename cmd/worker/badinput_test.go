package main

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Arguments and flags the worker does not take are bad input: exit 2 with one line
// naming them, before it connects anywhere (the release build, which has no server
// to start, is enough to tell).
func TestWorkerBadInputExits2(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "worker")
	if out, err := exec.Command("go", "build", "-tags", "toolpipe_noserver", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"extra"}, `takes no arguments, got ["extra"]`},
		{[]string{"--no-such-flag"}, "unknown flag: --no-such-flag"},
	} {
		var stderr bytes.Buffer
		cmd := exec.Command(bin, c.args...)
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Fatalf("worker %q: %v, want exit 2 (stderr %q)", c.args, err, stderr.String())
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("worker %q: stderr %q does not say %q", c.args, stderr.String(), c.want)
		}
	}
}
