package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// With the Web UI served, `starter run` prints the link to its turn's page (the
// browser check in internal/uitest opens the same link).
func TestRunPrintsUILink(t *testing.T) {
	root := repoRoot(t)
	cmd := exec.Command(starterBin, "run", "--state-dir", t.TempDir(), "--ui=true", "--ui-port", "0", "--workdir", root,
		filepath.Join(root, "examples", "turn.json"))
	cmd.Env = append(os.Environ(), "TEMPORAL_ADDRESS=", "TOOLPIPE_LOG_LEVEL=error")
	_, stderr := output(t, "run", cmd)
	link := regexp.MustCompile(`(?m)^Web UI: http://127\.0\.0\.1:\d+/namespaces/default/workflows/turn-default-[0-9a-f]+/[0-9a-f-]{36}/history$`)
	if !link.MatchString(stderr) {
		t.Errorf("no link to the turn's page on stderr:\n%s", stderr)
	}
}
