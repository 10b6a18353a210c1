package activities

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/proctest"
)

func hookInv(dir, command string, timeout float64) hooks.Invocation {
	return hooks.Invocation{Event: hooks.PreToolUse, ToolUseID: "toolu_h", Command: command, TimeoutSeconds: timeout,
		Cwd: dir, ProjectDir: dir, Stdin: `{"tool_name":"Bash","tool_input":{"command":"ls"}}`}
}

func TestRunHookExitCodesStdinAndEnvironment(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	run, err := a.RunHook(context.Background(), hookInv(dir,
		`read -r line; echo "in:$line"; echo "dir:$CLAUDE_PROJECT_DIR pwd:$(pwd)"; echo oops >&2; exit 2`, 0))
	if err != nil {
		t.Fatal(err)
	}
	if run.ExitCode != 2 || run.Stderr != "oops\n" || run.TimedOut || run.Failure != "" {
		t.Fatalf("run %+v", run)
	}
	want := `in:{"tool_name":"Bash","tool_input":{"command":"ls"}}` + "\ndir:" + dir + " pwd:" + dir + "\n"
	if run.Stdout != want || run.StdoutBytes != int64(len(want)) || run.Duration <= 0 || run.Timeout != hooks.DefaultTimeout {
		t.Fatalf("stdout %q (want %q), run %+v", run.Stdout, want, run)
	}
	// A hook that does not read its (large) input still finishes.
	inv := hookInv(dir, "exit 0", 0)
	inv.Stdin = strings.Repeat("x", 1<<20)
	if run, err := a.RunHook(context.Background(), inv); err != nil || run.ExitCode != 0 {
		t.Fatalf("unread stdin: %+v %v", run, err)
	}
}

func TestRunHookTimeoutKillsTheGroup(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	start := time.Now()
	run, err := a.RunHook(context.Background(), hookInv(dir, "sleep 300 & echo $! > child.pid; echo started; wait", 0.5))
	if err != nil {
		t.Fatal(err)
	}
	if !run.TimedOut || run.Stdout != "started\n" || time.Since(start) > 10*time.Second {
		t.Fatalf("run %+v after %s", run, time.Since(start))
	}
	pid := readPid(t, pidFile)
	eventually(t, "the hook's child to be killed", func() bool { return proctest.Gone(pid) })
	if o := hooks.Parse(hooks.PreToolUse, run); o.Status != hooks.NonBlocking || !strings.Contains(o.Error, "timed out after 500ms") {
		t.Fatalf("a timed-out hook must be a non-blocking error: %+v", o)
	}
}

func TestRunHookBackgroundChildDoesNotHoldItOpen(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	start := time.Now()
	// The background child inherits stdout; the hook itself ends at once.
	run, err := a.RunHook(context.Background(), hookInv(dir, "(sleep 300; echo late) & echo done", 0))
	if err != nil || run.ExitCode != 0 || !strings.HasPrefix(run.Stdout, "done\n") {
		t.Fatalf("run %+v %v", run, err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the hook took %s: its background child kept it", d)
	}
}

func TestRunHookCapsHugeOutput(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	run, err := a.RunHook(context.Background(), hookInv(dir, "head -c 10000000 /dev/zero | tr '\\0' x; head -c 200000 /dev/zero | tr '\\0' y >&2", 0))
	if err != nil {
		t.Fatal(err)
	}
	if run.StdoutBytes != 10_000_000 || run.StderrBytes != 200_000 || !run.Truncated() {
		t.Fatalf("sizes %d %d", run.StdoutBytes, run.StderrBytes)
	}
	for _, s := range []string{run.Stdout, run.Stderr} {
		if len(s) > hooks.OutputCap+200 || !strings.Contains(s, "truncated") {
			t.Fatalf("output of %d bytes is not capped with a note: %q", len(s), s[len(s)-100:])
		}
	}
}

func TestRunHookCancelled(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	pidFile := filepath.Join(dir, "pid")
	go func() {
		readPid(t, pidFile)
		cancel()
	}()
	_, err := a.RunHook(ctx, hookInv(dir, "echo $$ > pid; sleep 300", 0))
	if err != context.Canceled {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	pid := readPid(t, pidFile)
	eventually(t, "the cancelled hook to be killed", func() bool { return proctest.Gone(pid) })
}

func TestRunHookCannotStart(t *testing.T) {
	a := newActs(t)
	run, err := a.RunHook(context.Background(), hookInv(filepath.Join(t.TempDir(), "gone"), "true", 0))
	if err != nil || run.Failure == "" {
		t.Fatalf("a missing directory must be a Failure: %+v %v", run, err)
	}
}

func TestResolvePaths(t *testing.T) {
	a := newActs(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.Symlink("/etc", filepath.Join(root, "etc-link"))
	got, err := a.ResolvePaths(context.Background(), contract.ResolveRequest{Paths: []string{
		filepath.Join(root, "etc-link", "passwd"), filepath.Join(root, "plain"), filepath.Join(root, "plain"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(root, "etc-link", "passwd"), "/etc/passwd", filepath.Join(root, "plain")}
	if strings.Join(got.Paths, " ") != strings.Join(want, " ") {
		t.Fatalf("paths %v, want %v", got.Paths, want)
	}
}

// TestRunHookAsUnderClaudeCode: a hook runs in /bin/sh with the variables Claude
// Code 2.1.328 gives hooks (test/parity: TestParityHookEnvironment), not Bash's
// GIT_EDITOR or SHELL.
func TestRunHookAsUnderClaudeCode(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	t.Setenv("SHELL", "")
	inv := hookInv(dir, `echo "$0 [${BASH_VERSION:-}] $CLAUDECODE $CLAUDE_CODE_ENTRYPOINT $CLAUDE_CODE_SESSION_ID $CLAUDE_CODE_CHILD_SESSION $CLAUDE_CODE_SESSION_ATTENDED $AI_AGENT [${GIT_EDITOR:-}] [${SHELL:-}]"`, 0)
	inv.SessionID = "s1"
	run, err := a.RunHook(context.Background(), inv)
	if err != nil {
		t.Fatal(err)
	}
	want := "/bin/sh [] 1 sdk-cli s1 1 0 toolpipe_harness [] []\n"
	if sh, _ := filepath.EvalSymlinks("/bin/sh"); filepath.Base(sh) == "bash" {
		want = strings.Replace(want, "[]", "[*]", 1) // a system whose /bin/sh is bash
		run.Stdout = regexp.MustCompile(`\[[0-9][^]]*\]`).ReplaceAllString(run.Stdout, "[*]")
	}
	if run.Stdout != want {
		t.Errorf("hook saw %q, want %q", run.Stdout, want)
	}
}
