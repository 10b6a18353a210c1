package claudesdk

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	built     string
	buildErr  error
)

// toolpipeClaude builds cmd/toolpipe-claude once per test binary.
func toolpipeClaude(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		root := filepath.Join(filepath.Dir(file), "..", "..")
		dir, err := os.MkdirTemp("", "toolpipe-claude-bin-")
		if err != nil {
			buildErr = err
			return
		}
		built = filepath.Join(dir, "toolpipe-claude")
		cmd := exec.Command("go", "build", "-o", built, "./cmd/toolpipe-claude")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = err
			t.Logf("%s", out)
		}
	})
	if buildErr != nil {
		t.Fatalf("build toolpipe-claude: %v", buildErr)
	}
	return built
}

// toolpipeEnv is the environment toolpipe-claude runs with in a test: a state
// directory of its own, the embedded default, no Web UI.
func toolpipeEnv(t *testing.T) []string {
	return []string{"TOOLPIPE_STATE_DIR=" + t.TempDir(), "TEMPORAL_ADDRESS=", "TOOLPIPE_UI=false", "TOOLPIPE_LOG_LEVEL=warn"}
}
