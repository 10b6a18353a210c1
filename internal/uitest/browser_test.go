package uitest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/connect"
	"github.com/toolpipe/toolpipe/searchattr"
	"github.com/toolpipe/toolpipe/tool"
	tpworker "github.com/toolpipe/toolpipe/worker"
	"github.com/toolpipe/toolpipe/workflows"
)

// findChromium finds Debian's chromium package, which .ci/run installs, on PATH or
// where the package puts it; a browser build fetched at test time is not an option
// on machines that reach only package registries.
func findChromium() (string, error) {
	if p, err := exec.LookPath("chromium"); err == nil {
		return p, nil
	}
	const debian = "/usr/bin/chromium"
	if _, err := os.Stat(debian); err != nil {
		return "", fmt.Errorf("chromium is neither on PATH nor at %s (apt-get install chromium)", debian)
	}
	return debian, nil
}

// The browser check: the embedded server and its Web UI on free ports, a real turn,
// and the workflow's page in headless Chromium, which must show the activities'
// summaries ("Bash: …") and the turn's static summary.
func TestUIShowsToolSummaries(t *testing.T) {
	if os.Getenv("TOOLPIPE_BROWSER_TEST") != "1" {
		t.Skip("set TOOLPIPE_BROWSER_TEST=1 to run the browser check")
	}
	// Asked for, the check cannot pass by skipping: a missing browser fails it.
	chromium, err := findChromium()
	if err != nil {
		t.Fatalf("TOOLPIPE_BROWSER_TEST=1 but the browser check cannot run: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	stateDir := t.TempDir()
	conn, err := connect.Dial(ctx, connect.Options{
		StateDir: stateDir, UI: true, Logger: quiet, Mode: connect.Embedded,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if conn.Server == nil || conn.Server.UIAddress() == "" {
		t.Fatal("the embedded server runs without its UI")
	}
	w, err := tpworker.Start(tpworker.Config{Client: conn.Client, TaskQueue: "uitest", StateDir: t.TempDir(), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	in := workflows.TurnInput{SessionID: "ui-check", Workdir: t.TempDir(), CloseIntake: true, SearchAttributes: conn.HasSearchAttributes(ctx),
		Blocks: []tool.Block{
			block("toolu_01", tool.BashName, map[string]any{"command": "echo hello from the browser check"}),
			block("toolu_02", tool.GlobName, map[string]any{"pattern": "**/*.txt"}),
		}}
	run, err := conn.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: "turn-ui-check", TaskQueue: "uitest",
		StaticSummary: workflows.TurnStaticSummary(in), StaticDetails: workflows.TurnStaticDetails(in),
	}, workflows.TurnWorkflowName, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}

	// The link `starter run` and `starter agent` print (cmd/starter/uilink.go).
	page := conn.Link(ctx, stateDir, run.GetID(), "")
	if want := fmt.Sprintf("%s/namespaces/%s/workflows/%s/%s/history", conn.Server.UIAddress(), conn.Namespace, run.GetID(), run.GetRunID()); page != want {
		t.Fatalf("deep link %q, want %q", page, want)
	}
	wants := []string{"Bash: echo hello from the browser check", "Glob: **/*.txt", "Turn of session ui-check: 2 tool call(s)"}
	text, png := browse(ctx, t, chromium, page, wants)
	artifact := filepath.Join(artifactsDir(t), "ui-turn.png")
	if err := os.WriteFile(artifact, png, 0o644); err != nil {
		t.Fatal(err)
	}
	// The page's text beside it, to see what a failed check saw.
	if err := os.WriteFile(filepath.Join(artifactsDir(t), "ui-turn.txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", artifact)
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("the workflow's page does not show %q (its text is in test-artifacts/ui-turn.txt)", want)
		}
	}

	// The list, filtered as the README says (the session's query and a status): UI
	// 2.56 shows both as filters and finds the turn. (Its default columns have no
	// summary; the README says how to add the search attribute columns.)
	list := connect.ListLink(conn.Server.UIAddress(), conn.Namespace,
		fmt.Sprintf(`%s="ui-check" AND %s="done"`, searchattr.SessionID, searchattr.Status))
	listWants := []string{"turn-ui-check", `ToolpipeSessionID = "ui-check"`, `ToolpipeStatus = "done"`, "1 COMPLETED"}
	listText, listPNG := browse(ctx, t, chromium, list, listWants)
	if err := os.WriteFile(filepath.Join(artifactsDir(t), "ui-list.png"), listPNG, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(artifactsDir(t), "ui-list.txt"), []byte(listText), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, want := range listWants {
		if !strings.Contains(listText, want) {
			t.Errorf("the workflow list does not show %q (its text is in test-artifacts/ui-list.txt)", want)
		}
	}
}

// pageText is the text a person sees on the page, that of its frames included: the
// UI renders user metadata (summaries, details) as markdown inside iframes.
const pageText = `(() => {
	const parts = [document.body ? document.body.innerText : ""];
	for (const f of document.querySelectorAll("iframe")) {
		try {
			if (f.contentDocument && f.contentDocument.body) { parts.push(f.contentDocument.body.innerText); continue; }
		} catch (e) {}
		parts.push("[iframe srcdoc] " + (f.getAttribute("srcdoc") || ""));
	}
	return parts.join("\n");
})()`

// browse opens url in a fresh headless Chromium, waits until its text contains
// waitFor (the UI is a single-page app that fills in after load) or a minute has
// passed, and returns the page's text and a full-page screenshot.
func browse(ctx context.Context, t *testing.T, chromium, url string, waitFor []string) (string, []byte) {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1440, 1200),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()

	if _, err := chromedp.Run(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	var text string
	deadline := time.Now().Add(time.Minute)
	for {
		var err error
		text, err = chromedp.Run(bctx, chromedp.Evaluate[string](pageText))
		if err != nil {
			t.Fatalf("read the page: %v", err)
		}
		// The UI fills its parts (summaries in frames of their own) as its requests
		// come back, in no set order: poll until every one is there.
		if containsAll(text, waitFor) || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100)) // 100: PNG, not JPEG
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return text, png
}

// artifactsDir is test-artifacts/ at the repository's root (gitignored), where CI
// keeps what a person may want to look at after a run.
func artifactsDir(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "test-artifacts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func block(id, name string, input map[string]any) tool.Block {
	b, err := json.Marshal(input)
	if err != nil {
		panic(err)
	}
	return tool.Block{ID: id, Name: name, Input: b}
}

func containsAll(text string, wants []string) bool {
	for _, w := range wants {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}
