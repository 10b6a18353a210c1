package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/devserver"
)

// A cluster with no worker on the queue: `starter run --task-queue nobody` says
// that nothing polls the queue (the task queue's pollers), and on SIGTERM says what
// really happens (this process ran no tool; the turn stays open on the server),
// exiting 143. `starter status` of the turn then says no worker polls its queue
// instead of waiting for a query's timeout.
func TestRunOnAClusterWithNoWorkerSaysSo(t *testing.T) {
	root := repoRoot(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cluster, err := devserver.Start(ctx, devserver.Config{StateDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Stop()
	state := t.TempDir()
	onCluster := func(args ...string) *exec.Cmd {
		cmd := starter(t, state, args...)
		cmd.Env = append(cmd.Env, "TEMPORAL_ADDRESS="+cluster.FrontendAddress())
		cmd.Dir = root
		return cmd
	}
	run := onCluster("run", "--task-queue", "nobody", "--workdir", root, filepath.Join(root, "examples", "turn.json"))
	stderr, err := run.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var seen []string
	for sc.Scan() {
		seen = append(seen, sc.Text())
		if strings.HasPrefix(sc.Text(), `starter: no worker polls task queue "nobody" on `+cluster.FrontendAddress()) {
			break
		}
	}
	if err := run.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stderr)
	err = run.Wait()
	all := strings.Join(seen, "\n") + "\n" + string(rest)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 143 {
		t.Errorf("exit: %v, want 143\n%s", err, all)
	}
	for _, want := range []string{`no worker polls task queue "nobody"`, "starter: SIGTERM: this process ran no tool", "stays open on the server"} {
		if !strings.Contains(all, want) {
			t.Errorf("stderr lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "paused") || strings.Contains(all, "stopping the tools") {
		t.Errorf("stderr speaks of tools this process ran:\n%s", all)
	}

	id := ""
	for _, l := range seen {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "turn" {
			id = f[1]
		}
	}
	var status strings.Builder
	st := onCluster("status", id)
	st.Stderr = &status
	if err := st.Run(); err == nil || !strings.Contains(status.String(), `runs on task queue "nobody", which no worker polls`) {
		t.Errorf("status: %v\n%s", err, status.String())
	}
}
