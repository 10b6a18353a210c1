package reliability

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The tests of many clients drive the real starter (and worker) binaries, built
// once per test binary.
var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// binary returns the path of cmd/<name> built for this test run.
func binary(t *testing.T, name string) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "reliability-bin")
		if buildErr != nil {
			return
		}
		_, file, _, _ := runtime.Caller(0)
		root := filepath.Join(filepath.Dir(file), "..", "..")
		build := exec.Command("go", "build", "-o", binDir+"/", "./cmd/starter", "./cmd/worker")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			buildErr = &buildError{err: err, out: string(out)}
		}
	})
	if buildErr != nil {
		t.Fatalf("build: %v", buildErr)
	}
	return filepath.Join(binDir, name)
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// starterCmd is `starter ARGS` on stateDir with the embedded server (no cluster in
// the environment) and no Web UI, so tests never fight over its port.
func starterCmd(t *testing.T, stateDir string, args ...string) *exec.Cmd {
	cmd := exec.Command(binary(t, "starter"), append(args, "--state-dir", stateDir, "--ui=false")...)
	cmd.Env = append(os.Environ(), "TEMPORAL_ADDRESS=", "TOOLPIPE_LOG_LEVEL=error")
	return cmd
}

// logServerTrouble shows the embedded server's warnings and errors, and its
// starts and stops, so that a failure under load says what the server went through.
func logServerTrouble(t *testing.T, stateDir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(stateDir, "server.log"))
	if err != nil {
		t.Logf("no server log: %v", err)
		return
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "level=WARN") || strings.Contains(l, "level=ERROR") || strings.Contains(l, "keeper") ||
			strings.Contains(l, "Frontend is now healthy") || strings.Contains(l, "Shutdown") {
			if len(l) > 300 {
				l = l[:300]
			}
			lines = append(lines, l)
		}
	}
	if len(lines) > 200 {
		lines = lines[len(lines)-200:]
	}
	t.Logf("server log (warnings, errors, starts, stops):\n%s", strings.Join(lines, "\n"))
}
