// Package cluster tests toolpipe's worker against a Temporal cluster of the kind a
// team runs: the PostgreSQL-backed server that scripts/cluster.sh builds from
// go.temporal.io/server and starts, with the toolpipe worker as a process of its
// own. The starter connects through TEMPORAL_ADDRESS, so it runs no worker itself:
// every tool of the turn runs in the cluster's worker.
//
// It needs root (to install and start Debian's PostgreSQL) and a few minutes the
// first time (the server's build), so it runs only when asked:
//
//	TOOLPIPE_CLUSTER_TEST=1 go test -count=1 -timeout 20m ./test/cluster/
//
// A cluster that is already up is used and left up; one the test brings up it
// takes down again, unless TOOLPIPE_CLUSTER_KEEP=1.
package cluster

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/internal/testenv"
)

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// clusterScript runs scripts/cluster.sh with its output in the test's stderr, so
// a failing build or server start shows why.
func clusterScript(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(repoRoot(), "scripts", "cluster.sh"), args...)
	cmd.Stderr = os.Stderr
	return cmd
}

// clusterEnv is the environment `scripts/cluster.sh env` gives a starter: the
// cluster's address and namespace, the worker's state directory, and PATH with
// the binaries the script built.
func clusterEnv(t *testing.T, ctx context.Context) []string {
	t.Helper()
	out, err := clusterScript(ctx, "env").Output()
	if err != nil {
		t.Fatalf("scripts/cluster.sh env: %v", err)
	}
	env := os.Environ()
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		kv, ok := strings.CutPrefix(sc.Text(), "export ")
		if !ok {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		v = os.Expand(v, func(name string) string { return lookup(env, name) })
		env = append(env, k+"="+v)
	}
	return env
}

func lookup(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, _ := strings.Cut(env[i], "="); k == name {
			return v
		}
	}
	return ""
}

// findStarter looks the starter up on env's PATH, where the script put the one it
// built first.
func findStarter(env []string) string {
	for _, dir := range filepath.SplitList(lookup(env, "PATH")) {
		p := filepath.Join(dir, "starter")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// TestExampleTurnOnPostgresCluster runs the README's example turn on the cluster
// and expects the tool_result message of cmd/starter's TestRunExampleTurn.
func TestExampleTurnOnPostgresCluster(t *testing.T) {
	if os.Getenv("TOOLPIPE_CLUSTER_TEST") != "1" {
		t.Skip("set TOOLPIPE_CLUSTER_TEST=1 to run the worker against scripts/cluster.sh's PostgreSQL-backed Temporal server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 18*time.Minute)
	defer cancel()
	root := repoRoot()

	status := clusterScript(ctx, "status")
	status.Stdout, status.Stderr = nil, nil
	wasUp := status.Run() == nil
	start := time.Now()
	if err := clusterScript(ctx, "up").Run(); err != nil {
		t.Fatalf("scripts/cluster.sh up: %v", err)
	}
	t.Logf("scripts/cluster.sh up: %s", time.Since(start).Round(time.Second))
	if !wasUp && os.Getenv("TOOLPIPE_CLUSTER_KEEP") != "1" {
		t.Cleanup(func() {
			if err := clusterScript(context.Background(), "down").Run(); err != nil {
				t.Errorf("scripts/cluster.sh down: %v", err)
			}
		})
	}
	env := clusterEnv(t, ctx)
	if lookup(env, "TEMPORAL_ADDRESS") == "" {
		t.Fatal("scripts/cluster.sh env gave no TEMPORAL_ADDRESS")
	}
	starter := findStarter(env)
	if starter == "" {
		t.Fatal("no starter on the PATH that scripts/cluster.sh env gives")
	}

	// A session of its own: the turn's id derives from the session and the tool_use
	// ids, and the cluster's database outlives the test, so a fixed session would
	// attach to an earlier run's finished turn instead of running the tools.
	session := fmt.Sprintf("cluster-test-%d", time.Now().UnixNano())
	// The turn takes a second or two; a stuck one (no worker polling, a call
	// waiting for approval) fails here with the starter's progress on stderr.
	runCtx, cancelRun := context.WithTimeout(ctx, 3*time.Minute)
	defer cancelRun()
	run := exec.CommandContext(runCtx, starter, "run", "--workdir", root, "--session", session,
		filepath.Join(root, "examples", "turn.json"))
	run.Env = append(env, "TOOLPIPE_LOG_LEVEL=error")
	var stderr bytes.Buffer
	run.Stderr = &stderr
	start = time.Now()
	out, err := run.Output()
	if err != nil {
		t.Fatalf("starter run: %v\n%s", err, stderr.String())
	}
	t.Logf("starter run on the cluster: %s", time.Since(start).Round(time.Millisecond))

	testenv.CheckExampleTurn(t, root, out)

	// The turn is in the cluster: querying it needs a worker polling the cluster's
	// task queue (the finished workflow is replayed there), which is the worker
	// process scripts/cluster.sh runs, not anything in this test.
	var id string
	for _, line := range strings.Split(stderr.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "turn "); ok {
			id = strings.Fields(rest)[0]
		}
	}
	if id == "" {
		t.Fatalf("starter run printed no turn id on stderr:\n%s", stderr.String())
	}
	st := exec.CommandContext(runCtx, starter, "status", id)
	st.Env = run.Env
	if out, err := st.CombinedOutput(); err != nil || !strings.Contains(string(out), "toolu_05") {
		t.Errorf("starter status %s: %v\n%s", id, err, out)
	}
}
