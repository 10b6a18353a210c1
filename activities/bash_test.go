package activities

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/proctest"
	"github.com/toolpipe/toolpipe/tool"
)

func TestBashOutputAndExitCode(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	out, err := a.Bash(context.Background(), call(t, tool.BashName, dir, map[string]any{"command": "echo out; echo err >&2; pwd"}))
	if err != nil || out.IsError {
		t.Fatalf("out=%+v err=%v", out, err)
	}
	if want := "out\nerr\n" + dir; out.Content != want {
		t.Fatalf("content %q want %q", out.Content, want)
	}
	out, err = a.Bash(context.Background(), call(t, tool.BashName, dir, map[string]any{"command": "echo partial; exit 3"}))
	if err != nil || !out.IsError || out.Content != "Exit code 3\npartial" {
		t.Fatalf("non-zero exit: %+v err=%v", out, err)
	}
}

func TestBashTimeoutKillsGroup(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	out, err := a.Bash(context.Background(), call(t, tool.BashName, dir, map[string]any{
		"command": "sleep 300 & echo $! > child.pid; wait", "timeout": 300,
	}))
	if err != nil || !out.IsError || !strings.Contains(out.Content, "timed out after 300ms") {
		t.Fatalf("timeout: %+v err=%v", out, err)
	}
	pid := readPid(t, pidFile)
	eventually(t, "the timed-out command's child to die", func() bool { return proctest.Gone(pid) })
}

func TestBashCancelKillsGroup(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := a.Bash(ctx, call(t, tool.BashName, dir, map[string]any{"command": "sleep 300 & echo $! > child.pid; wait"}))
		done <- err
	}()
	pid := readPid(t, pidFile)
	if proctest.Gone(pid) {
		t.Fatal("child not running before the cancel")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Bash returned %v, want context.Canceled", err)
	}
	eventually(t, "the cancelled command's child to die", func() bool { return proctest.Gone(pid) })
}

// A command that leaves a background process and exits leaves no orphan behind.
func TestBashLeavesNoOrphans(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	out, err := a.Bash(context.Background(), call(t, tool.BashName, dir, map[string]any{"command": "(sleep 300 & echo $! > child.pid); echo started"}))
	if err != nil || out.IsError || out.Content != "started" {
		t.Fatalf("%+v err=%v", out, err)
	}
	pid := readPid(t, filepath.Join(dir, "child.pid"))
	eventually(t, "the background child to be killed", func() bool { return proctest.Gone(pid) })
}

type fixedOverride map[string]int

func (f fixedOverride) Override(name string) (int, bool) { n, ok := f[name]; return n, ok }

// An operator override lowers Bash's threshold: a 150-byte output is persisted.
func TestBashOverrideThreshold(t *testing.T) {
	state, dir := t.TempDir(), t.TempDir()
	a, err := New(Config{StateDir: state, Overrides: fixedOverride{tool.BashName: 100}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Bash(context.Background(), call(t, tool.BashName, dir, map[string]any{"command": "printf '%0150d' 0"}))
	if err != nil || out.IsError || !strings.HasPrefix(out.Content, "<persisted-output>") {
		t.Fatalf("%+v err=%v", out, err)
	}
}
