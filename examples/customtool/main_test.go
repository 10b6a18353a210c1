package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/server/temporaltest"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/fakeanthropic"
	"github.com/toolpipe/toolpipe/wire"
)

// testServer is a Temporal server of the test's own, in memory; like the rest of
// this directory it uses only public packages, so the example can be copied out.
func testServer(t *testing.T) *temporaltest.TestServer {
	return temporaltest.NewServer(temporaltest.WithT(t))
}

// testContext bounds a test's calls.
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// startScriptedModel starts the fake model on the example's script.json, the one its
// usage line passes to --fake-model, until the test ends.
func startScriptedModel(t *testing.T) *fakeanthropic.Server {
	t.Helper()
	script, err := fakeanthropic.LoadScript("script.json")
	if err != nil {
		t.Fatal(err)
	}
	fake, err := fakeanthropic.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Close)
	return fake
}

// TestDeployPreviewEndToEnd runs the example's session on a real Temporal server with
// the scripted fake model: the model is offered DeployPreview with its schema, calls
// a dry run beside a Glob, then a deploy, and each tool_result reaches the model's
// next request; the deploy's long log is persisted and previewed.
func TestDeployPreviewEndToEnd(t *testing.T) {
	fake := startScriptedModel(t)
	site := t.TempDir()
	for _, f := range []string{"index.html", "about.html"} {
		if err := os.WriteFile(filepath.Join(site, f), []byte("<h1>"+f+"</h1>\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stateDir := t.TempDir()
	var out bytes.Buffer
	res, err := runSession(testContext(t), testServer(t).GetDefaultClient(), stateDir, &toolpipe.Model{APIKey: "k", BaseURL: fake.URL()},
		site, "e2e", "Deploy a preview of feature-x", &out)
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != "end_turn" || res.Text != "The preview of feature-x is at https://feature-x.preview.example." {
		t.Fatalf("session ended %q: %q", res.StopReason, res.Text)
	}
	reqs := fake.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	if !slices.Contains(reqs[0].Tools, "DeployPreview") || !slices.Contains(reqs[0].Tools, "Bash") ||
		!bytes.Contains(reqs[0].Body, []byte(`"pattern":"^[a-z0-9][a-z0-9-]{0,39}$"`)) {
		t.Fatalf("the model was not offered DeployPreview with its schema: %v", reqs[0].Tools)
	}
	dry := toolResult(t, reqs[1], "toolu_d1")
	if dry.Content != "would deploy 2 files for feature-x: about.html, index.html" || dry.IsError {
		t.Errorf("dry run result: %+v", dry)
	}
	if g := toolResult(t, reqs[1], "toolu_d2"); !strings.Contains(g.Content, "about.html") {
		t.Errorf("Glob result: %+v", g)
	}
	deployed := toolResult(t, reqs[2], "toolu_d3")
	log := filepath.Join(stateDir, "e2e", "tool-results", "toolu_d3.txt")
	if !strings.Contains(deployed.Content, "<persisted-output>") || !strings.Contains(deployed.Content, log) ||
		!strings.Contains(deployed.Content, "deployed feature-x to https://feature-x.preview.example") {
		t.Errorf("deploy result is not the preview of its persisted log: %.400q", deployed.Content)
	}
	if b, err := os.ReadFile(log); err != nil || !strings.HasPrefix(string(b), "deployed feature-x") || len(b) <= 4_000 {
		t.Errorf("persisted log: %d bytes, %v", len(b), err)
	}
	if _, err := os.Stat(filepath.Join(site, ".previews", "feature-x", "index.html")); err != nil {
		t.Errorf("the deploy did not run: %v", err)
	}
	for _, want := range []string{"> Deploy a preview of feature-x", `-> DeployPreview({"branch":"feature-x","dry_run":true}) [toolu_d1]`, "<- toolu_d1 would deploy 2 files"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// toolResult finds the tool_result of id in the request's last message.
func toolResult(t *testing.T, r fakeanthropic.Request, id string) wire.Block {
	t.Helper()
	last := r.Messages[len(r.Messages)-1]
	for _, b := range last.Content {
		if b.Type == wire.BlockToolResult && b.ToolUseID == id {
			return b
		}
	}
	t.Fatalf("no tool_result for %s in the request's last message: %+v", id, last)
	return wire.Block{}
}
