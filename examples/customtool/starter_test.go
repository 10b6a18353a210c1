package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe"
)

// TestStarterAgentOnTheProgramsQueue: `starter agent` against a cluster (here the
// test's server) starts no worker of its own; the program's worker on the queue runs
// the session, so the model is offered DeployPreview and its calls run there.
func TestStarterAgentOnTheProgramsQueue(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	bin := filepath.Join(t.TempDir(), "starter")
	build := exec.Command("go", "build", "-o", bin, "./cmd/starter")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build starter: %v\n%s", err, out)
	}
	fake := startScriptedModel(t)
	stateDir, site := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(site, "index.html"), []byte("<h1>hi</h1>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := testServer(t)
	stop, err := startWorker(srv.GetDefaultClient(), stateDir, &toolpipe.Model{APIKey: "k", BaseURL: fake.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	cmd := exec.Command(bin, "agent", "--task-queue", taskQueue, "--state-dir", stateDir, "--workdir", site,
		"--session", "cli", "Deploy a preview of feature-x")
	cmd.Env = append(os.Environ(), "TEMPORAL_ADDRESS="+srv.GetFrontendHostPort(), "TEMPORAL_NAMESPACE="+srv.GetDefaultNamespace())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("starter agent: %v\n%s", err, out)
	}
	for _, want := range []string{`-> DeployPreview({"branch":"feature-x","dry_run":true}) [toolu_d1]`,
		"<- toolu_d1 would deploy 1 file for feature-x: index.html", "https://feature-x.preview.example"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(site, ".previews", "feature-x", "index.html")); err != nil {
		t.Errorf("the deploy did not run: %v", err)
	}
}
