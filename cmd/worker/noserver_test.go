package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The release worker (-tags toolpipe_noserver, scripts/build-release.sh) must not
// link the embedded Temporal server or its Web UI: they are two thirds of the
// binary. The tagged build must keep compiling too.
func TestNoServerBuildLeavesTheServerOut(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", "toolpipe_noserver", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "go.temporal.io/server/") || strings.HasPrefix(pkg, "github.com/temporalio/ui-server/") ||
			pkg == "github.com/toolpipe/toolpipe/devserver" {
			t.Errorf("the toolpipe_noserver build links %s", pkg)
		}
	}
	if out, err := exec.Command("go", "vet", "-tags", "toolpipe_noserver", ".", "../../connect").CombinedOutput(); err != nil {
		t.Fatalf("the toolpipe_noserver build does not compile: %v\n%s", err, out)
	}
}
