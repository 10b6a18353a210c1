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
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/connect"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/searchattr"
	"github.com/toolpipe/toolpipe/settings"
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
// summaries ("Bash: …") and the turn's static summary; its failures (issue 32 item
// 5): a Bash that exited 1 as a failed activity, an unknown tool's record, the
// finished turn's current details with the errors, its memo once no worker is left
// to answer queries, and ToolpipeFailedCalls in the list; and the update a person
// answers an approval with from "More Actions".
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
	stopWorker := sync.OnceFunc(w.Stop)
	defer stopWorker()

	// The failing Bash is not read-only, so it runs alone after the others: nothing
	// is cancelled by its failure.
	in := workflows.TurnInput{SessionID: "ui-check", Workdir: t.TempDir(), CloseIntake: true, SearchAttributes: conn.HasSearchAttributes(ctx),
		FailedCallsAttribute: conn.HasFailedCallsAttribute(ctx),
		Blocks: []tool.Block{
			block("toolu_01", tool.BashName, map[string]any{"command": "echo hello from the browser check"}),
			block("toolu_02", tool.GlobName, map[string]any{"pattern": "**/*.txt"}),
			block("toolu_03", "NoSuchTool", map[string]any{"x": 1}),
			block("toolu_04", tool.BashName, map[string]any{"command": "echo failing > out.txt; exit 1"}),
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
	// The history: every call under its summary, the failed Bash as a failed
	// activity with its error, the unknown tool as a failed record.
	check(ctx, t, chromium, page, "ui-turn", "Bash: echo hello from the browser check", "Glob: **/*.txt",
		"Turn of session ui-check: 4 tool call(s)", "Bash: echo failing > out.txt; exit 1", "NoSuchTool (unknown tool)",
		"Activity Task Failed", "Exit code 1")
	base := strings.TrimSuffix(page, "/history")
	// The timeline draws the failed calls as failed (see ui-timeline.png).
	check(ctx, t, chromium, base+"/timeline", "ui-timeline", "Bash: echo failing > out.txt; exit 1", "RefusedCall • NoSuchTool (unknown tool)")
	// The finished turn's current details (a worker answers the query): the table
	// with each call's state and error.
	check(ctx, t, chromium, base+"/user-metadata", "ui-details", "Current Details", "4 tool call(s)", "2 done", "2 error",
		"Exit code 1", "Error: No such tool available: NoSuchTool")
	approvalFromUI(ctx, t, conn, chromium, stateDir)

	// With no worker left to answer queries (the process that ran the turn has
	// exited), the memo still has every call, its state and its error.
	stopWorker()
	check(ctx, t, chromium, base+"/memo", "ui-memo", "failed_calls", "Exit code 1", `"state": "error"`, "toolu_04")

	// The list, filtered as the README says (the session's query and a status): UI
	// 2.56 shows both as filters and finds the turn. (Its default columns have no
	// summary; the README says how to add the search attribute columns.)
	list := connect.ListLink(conn.Server.UIAddress(), conn.Namespace,
		fmt.Sprintf(`%s="ui-check" AND %s="done" AND %s > 0`, searchattr.SessionID, searchattr.Status, searchattr.FailedCalls))
	check(ctx, t, chromium, list, "ui-list", "turn-ui-check", `ToolpipeSessionID = "ui-check"`, `ToolpipeStatus = "done"`,
		"ToolpipeFailedCalls > 0", "1 COMPLETED")
}

// check opens url, keeps its screenshot and text as test-artifacts/NAME.png and
// .txt, and fails the test for each of wants the page does not show.
func check(ctx context.Context, t *testing.T, chromium, url, name string, wants ...string) {
	t.Helper()
	text, png := browse(ctx, t, chromium, url, wants)
	if err := os.WriteFile(filepath.Join(artifactsDir(t), name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	// The page's text beside it, to see what a failed check saw.
	if err := os.WriteFile(filepath.Join(artifactsDir(t), name+".txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s does not show %q (its text is in test-artifacts/%s.txt)", url, want, name)
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
var browseWait = time.Minute

func browse(ctx context.Context, t *testing.T, chromium, url string, waitFor []string) (string, []byte) {
	t.Helper()
	bctx, done := newBrowser(ctx, t, chromium)
	defer done()
	if _, err := chromedp.Run(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	var text string
	deadline := time.Now().Add(browseWait)
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

// newBrowser starts a fresh headless Chromium; done closes it.
func newBrowser(ctx context.Context, t *testing.T, chromium string) (context.Context, func()) {
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
	bctx, cancelBrowser := chromedp.NewContext(actx)
	return bctx, func() { cancelBrowser(); cancelAlloc() }
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

// approvalFromUI: a call waiting for approval can be answered from its turn's page,
// as the README says: "More Actions" offers "Send an Update", whose names are the
// turn's updates with their descriptions, Approve and Deny among them (their input
// is {"tool_use_id": …}). The answer itself is sent as `starter approve` sends it.
func approvalFromUI(ctx context.Context, t *testing.T, conn *connect.Conn, chromium, stateDir string) {
	t.Helper()
	work := t.TempDir()
	s := settings.Settings{Permissions: settings.Permissions{Set: true, DefaultMode: permissions.Default, HasMode: true}}
	pol, err := s.Policy(settings.PolicyOptions{WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	in := workflows.TurnInput{SessionID: "ui-approve", Workdir: work, CloseIntake: true,
		Settings: &workflows.TurnSettings{Permissions: pol, AskTimeout: time.Hour},
		Blocks:   []tool.Block{block("toolu_09", tool.BashName, map[string]any{"command": "touch approved"})}}
	run, err := conn.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "turn-ui-approve", TaskQueue: "uitest"}, workflows.TurnWorkflowName, in)
	if err != nil {
		t.Fatal(err)
	}
	bctx, done := newBrowser(ctx, t, chromium)
	defer done()
	if _, err := chromedp.Run(bctx, chromedp.Navigate(conn.Link(ctx, stateDir, run.GetID(), ""))); err != nil {
		t.Fatal(err)
	}
	js := func(expr string) string {
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	offered := ""
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		// Open the menu, then read its "Send an Update" item and the update names
		// its dialog offers (the UI reads them from the turn's metadata query).
		js(`(() => { const b = document.querySelector('[data-menu-anchor="workflow-actions"] button'); if (b && b.getAttribute('aria-expanded') !== 'true') b.click(); return '' })()`)
		offered = js(`(() => { const i = document.querySelector('[data-testid="update-button"]'); const m = document.querySelector('[data-testid="update-confirmation-modal"]');
			return (i ? i.innerText : '') + '\n' + (m ? [...m.querySelectorAll('[role="option"]')].map(o => o.innerText.trim()).join('\n') : '') })()`)
		if strings.Contains(offered, "Approve") && strings.Contains(offered, "Deny") {
			break
		}
	}
	if err := os.WriteFile(filepath.Join(artifactsDir(t), "ui-approve.txt"), []byte(offered), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Send an Update", "Approve  Let a tool call that waits for approval run.", "Deny  Refuse a tool call that waits for approval"} {
		if !strings.Contains(offered, want) {
			t.Errorf("the waiting turn's page does not offer %q (test-artifacts/ui-approve.txt)", want)
		}
	}
	h, err := conn.Client.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: run.GetID(), UpdateName: workflows.ApproveUpdate,
		Args: []any{map[string]any{"tool_use_id": "toolu_09"}}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err == nil {
		err = run.Get(ctx, nil)
	}
	if err != nil {
		t.Fatalf("approve with the UI's input: %v", err)
	}
}
