package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/proctest"
)

// `starter agent --fake-model` beside a running `starter dev` on the same state
// directory works: the session, its model calls and its turns run on the agent
// process's own task queue, so dev's worker (which has no fake) never takes the
// model call; the agent prints the fake's answers.
func TestFakeModelBesideDev(t *testing.T) {
	root, state := repoRoot(t), t.TempDir()
	proctest.StartDev(t, starter(t, state, "dev", "--port", "0"))

	cmd := starter(t, state, "agent", "--workdir", root, "--session", "beside-dev",
		"--fake-model", filepath.Join(root, "examples", "agent-script.json"), "What is left to do in examples/project?")
	cmd.Dir = root
	agentOut, stderr := output(t, "agent beside dev", cmd)
	for _, want := range []string{"examples/project/main.go has 9 lines and one TODO", "(session ended: end_turn)"} {
		if !strings.Contains(string(agentOut), want) {
			t.Errorf("output lacks %q:\n%s\n%s", want, agentOut, stderr)
		}
	}
}
