package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/wire"
)

// From the CLI: a scripted session (turn 1 writes a file, turn 2 removes another
// with Bash, turn 3 edits a third), its history, a rewind to before turn 2 (the
// next prompt's request ends at turn 1's results; history marks turns 2 and 3
// rewound and lists the rewind), a fork at turn 2, and the bad inputs (a turn past
// the end, a fork onto an existing session, --code without checkpoints) exiting 2.
func TestAgentHistoryRewindFork(t *testing.T) {
	work, state := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(work, "gone.txt"), []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(work, "edit.txt"), []byte("before\n"), 0o644)
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{toolUseBlock("w1", "Write", `{"file_path":"`+filepath.Join(work, "new.txt")+`","content":"new\n"}`)}},
		{Content: []wire.Block{toolUseBlock("w2", "Bash", `{"command":"rm gone.txt"}`)}},
		{Content: []wire.Block{toolUseBlock("w3", "Read", `{"file_path":"`+filepath.Join(work, "edit.txt")+`"}`),
			toolUseBlock("w4", "Edit", `{"file_path":"`+filepath.Join(work, "edit.txt")+`","old_string":"before","new_string":"after"}`)}},
		{Content: []wire.Block{{Type: "text", Text: "three turns done"}}},
		{When: "after the rewind", Content: []wire.Block{{Type: "text", Text: "answered after the rewind"}}},
		{When: "in the fork", Content: []wire.Block{{Type: "text", Text: "answered in the fork"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	st := scriptedStarter{t: t, state: state, model: fake.URL()}
	run := func(args ...string) (int, string) { t.Helper(); return st.run(work, args...) }
	ok := func(args ...string) string { t.Helper(); return st.ok(work, args...) }
	ok("agent", "--session", "s", "do three turns")
	hist := ok("agent", "history", "s")
	for _, want := range []string{`1     "do three turns" → Write(`, "new.txt", "2     Bash(rm gone.txt)", "Edit(", "-     reply: three turns done"} {
		if !strings.Contains(hist, want) {
			t.Errorf("history lacks %q:\n%s", want, hist)
		}
	}
	out := ok("agent", "rewind", "s", "--to", "2")
	if !strings.Contains(out, "rewound session s to before turn 2: 3 messages") {
		t.Fatalf("rewind:\n%s", out)
	}
	hist = ok("agent", "history", "s")
	if !strings.Contains(hist, "2 (rewound)") || !strings.Contains(hist, "3 (rewound)") || strings.Contains(hist, "1 (rewound)") ||
		!strings.Contains(hist, "rewound to before turn 2 by ") {
		t.Fatalf("history after the rewind:\n%s", hist)
	}
	ok("agent", "--session", "s", "after the rewind")
	reqs := fake.Requests()
	last := reqs[len(reqs)-1]
	if strings.Contains(string(last.Body), "rm gone.txt") || !strings.Contains(string(last.Body), "new.txt") {
		t.Fatalf("the request after the rewind:\n%s", last.Body)
	}
	out = ok("agent", "fork", "s", "--at", "2", "--session", "s2")
	if !strings.Contains(out, "forked session s2 from s at turn 2") {
		t.Fatalf("fork:\n%s", out)
	}
	ok("agent", "--session", "s2", "in the fork")
	if hist := ok("agent", "history", "s2"); !strings.Contains(hist, "forked from session s at turn 2") {
		t.Fatalf("the fork's history:\n%s", hist)
	}
	for _, bad := range [][]string{
		{"agent", "rewind", "s", "--to", "9"},
		{"agent", "rewind", "s", "--to", "two"},
		{"agent", "rewind", "s", "--to", "1", "--code"},
		{"agent", "fork", "s", "--at", "1", "--session", "s2"},
		{"agent", "fork", "s", "--at", "1"},
		{"agent", "history", "nobody"},
	} {
		if code, out := run(bad...); code != 2 {
			t.Errorf("starter %v: exit %d, want 2\n%s", bad, code, out)
		} else if !strings.Contains(out, "starter: ") {
			t.Errorf("starter %v says no error:\n%s", bad, out)
		}
	}
}

// scriptedStarter runs the starter binary on one state directory against a
// scripted model, in a working directory.
type scriptedStarter struct {
	t            *testing.T
	state, model string
}

// run returns the exit code and the combined output of the starter run with
// --workdir dir.
func (s scriptedStarter) run(dir string, args ...string) (int, string) {
	s.t.Helper()
	return s.runIn("", append(args, "--workdir", dir)...)
}

// runIn runs the starter in the current directory cwd ("": the test's), with
// args as they are: no --workdir unless args give one.
func (s scriptedStarter) runIn(cwd string, args ...string) (int, string) {
	s.t.Helper()
	cmd := starter(s.t, s.state, args...)
	cmd.Dir = cwd
	cmd.Env = append(cmd.Env, "ANTHROPIC_BASE_URL="+s.model, "ANTHROPIC_API_KEY=k-e2e")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		s.t.Fatal(err)
	}
	return 0, string(out)
}

// ok is run that fails the test unless the starter exits 0.
func (s scriptedStarter) ok(dir string, args ...string) string {
	s.t.Helper()
	code, out := s.run(dir, args...)
	if code != 0 {
		s.t.Fatalf("starter %v: exit %d\n%s", args, code, out)
	}
	return out
}
