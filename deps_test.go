package toolpipe_test

import (
	"os/exec"
	"strings"
	"testing"
)

// A program that imports the Go API to talk to a cluster does not link the
// Temporal server: the embedded server is package connect's (and devserver's),
// which the root does not import. Before the move the root reached devserver, 293
// packages of the server and 1,642 packages in all.
func TestGoAPIDoesNotLinkTheServer(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "go.temporal.io/server/") || strings.HasPrefix(pkg, "github.com/temporalio/ui-server/") ||
			pkg == "github.com/toolpipe/toolpipe/devserver" || pkg == "github.com/toolpipe/toolpipe/connect" {
			t.Errorf("the Go API links %s", pkg)
		}
	}
}
