package toolpipe_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
)

// stamp is a custom tool: it writes a stamp file into the working directory, or with
// "peek" only reads it (then it is safe). "size" makes its result that long.
var stamp = toolpipe.MustTool(toolpipe.ToolSpec{
	Name:        "Stamp",
	Description: "Writes a stamp file, or reads it with peek.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"peek":{"type":"boolean"},"size":{"type":"integer"}},"required":["text"],"additionalProperties":false}`),
	IsConcurrencySafe: func(in json.RawMessage) bool {
		var v struct{ Peek bool }
		return json.Unmarshal(in, &v) == nil && v.Peek
	},
	MaxResultSizeChars: 1_000,
	Run: func(ctx context.Context, call toolpipe.Call) (toolpipe.Result, error) {
		var in struct {
			Text string
			Peek bool
			Size int
		}
		if err := json.Unmarshal(call.Input, &in); err != nil {
			return toolpipe.Result{}, err
		}
		path := filepath.Join(call.Workdir, "stamp.txt")
		if in.Peek {
			b, err := os.ReadFile(path)
			if err != nil {
				return toolpipe.Result{Content: "no stamp yet", IsError: true}, nil
			}
			return toolpipe.Result{Content: string(b)}, nil
		}
		if err := os.WriteFile(path, []byte(in.Text), 0o644); err != nil {
			return toolpipe.Result{}, err
		}
		if in.Size > 0 {
			return toolpipe.Result{Content: strings.Repeat("s", in.Size)}, nil
		}
		return toolpipe.Result{Content: "stamped " + call.ID}, nil
	},
})

// Greet is the program's own workflow, on the same worker as toolpipe's.
func Greet(ctx workflow.Context, name string) (string, error) { return "hello " + name, nil }

// ownWorker is a program's worker: its own options and workflow, toolpipe beside.
func ownWorker(t *testing.T, opts toolpipe.Options) (*toolpipe.Client, string) {
	t.Helper()
	queue := testenv.TaskQueue(t)
	if opts.StateDir == "" {
		opts.StateDir = t.TempDir()
	}
	p, err := toolpipe.NewPlugin(testenv.Client(), opts)
	if err != nil {
		t.Fatal(err)
	}
	w := sdkworker.New(testenv.Client(), queue, sdkworker.Options{Plugins: []sdkworker.Plugin{p}})
	w.RegisterWorkflowWithOptions(Greet, workflow.RegisterOptions{Name: "Greet"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return toolpipe.NewClient(testenv.Client(), queue, toolpipe.WithTools(opts.Tools...)), queue
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// TestCustomToolInAProgramsWorker: toolpipe registered in a worker that also runs the
// program's workflow; a turn started with the typed client streams in blocks and
// collects results: the custom tool runs, an invalid input is refused with the
// model's message, the peek (safe) sees the stamp written before it, and a result
// over the tool's threshold is persisted with a preview.
func TestCustomToolInAProgramsWorker(t *testing.T) {
	stateDir := t.TempDir()
	c, queue := ownWorker(t, toolpipe.Options{StateDir: stateDir, Tools: []*toolpipe.Tool{stamp}})
	ctx := testenv.Context(t)
	dir := t.TempDir()

	greet, err := testenv.Client().ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "greet-" + t.Name(), TaskQueue: queue}, "Greet", "you")
	if err != nil {
		t.Fatal(err)
	}
	var hello string
	if err := greet.Get(ctx, &hello); err != nil || hello != "hello you" {
		t.Fatalf("the program's workflow: %q, %v", hello, err)
	}

	turn, err := c.StartTurn(ctx, []toolpipe.Block{{ID: "w1", Name: "Stamp", Input: raw(`{"text":"v1"}`)}},
		toolpipe.TurnOptions{SessionID: "s1", Workdir: dir, Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := turn.AddBlocks(ctx,
		toolpipe.Block{ID: "bad", Name: "Stamp", Input: raw(`{"text":"v1","color":"red"}`)},
		toolpipe.Block{ID: "p1", Name: "Stamp", Input: raw(`{"text":"","peek":true}`)},
		toolpipe.Block{ID: "big", Name: "Stamp", Input: raw(`{"text":"v2","size":5000}`)},
	); err != nil {
		t.Fatal(err)
	}
	if err := turn.CloseIntake(ctx); err != nil {
		t.Fatal(err)
	}
	var got []toolpipe.ToolResult
	res, err := turn.Follow(ctx, func(r toolpipe.ToolResult) { got = append(got, r) })
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != len(got) {
		t.Fatalf("Follow handed over %d results and returned %d", len(got), len(res.Results))
	}
	if len(got) != 4 {
		t.Fatalf("results %+v", got)
	}
	if got[0].Content != "stamped w1" || got[0].IsError {
		t.Errorf("w1: %+v", got[0])
	}
	if want := "<tool_use_error>InputValidationError: Stamp failed due to the following issue:\nAn unexpected parameter `color` was provided</tool_use_error>"; got[1].Content != want {
		t.Errorf("bad: %q", got[1].Content)
	}
	if got[2].Content != "v1" {
		t.Errorf("the peek ran before the stamp it follows: %+v", got[2])
	}
	file := filepath.Join(stateDir, "s1", "tool-results", "big.txt")
	if !strings.Contains(got[3].Content, "<persisted-output>") || !strings.Contains(got[3].Content, file) {
		t.Errorf("big: not persisted: %.300q", got[3].Content)
	}
	if b, err := os.ReadFile(file); err != nil || len(b) != 5000 {
		t.Errorf("persisted file: %d bytes, %v", len(b), err)
	}
}

// TestCustomToolPermissionsAndHooks: permission rules and hook matchers name the
// custom tool as they name a built-in one; an asked call waits for the client's
// Approve.
func TestCustomToolPermissionsAndHooks(t *testing.T) {
	c, _ := ownWorker(t, toolpipe.Options{Tools: []*toolpipe.Tool{stamp}})
	ctx := testenv.Context(t)
	dir := t.TempDir()
	settingsFile := func(name, json string) *toolpipe.Settings {
		f := filepath.Join(t.TempDir(), name+".json")
		if err := os.WriteFile(f, []byte(json), 0o644); err != nil {
			t.Fatal(err)
		}
		return &toolpipe.Settings{File: f, UserDir: t.TempDir()}
	}
	run := func(settings *toolpipe.Settings, blocks ...toolpipe.Block) (*toolpipe.Turn, error) {
		return c.StartTurn(ctx, blocks, toolpipe.TurnOptions{SessionID: "s2-" + t.Name(), Workdir: dir, Settings: settings})
	}

	denied, err := run(settingsFile("deny", `{"permissions":{"deny":["Stamp"]}}`),
		toolpipe.Block{ID: "d1", Name: "Stamp", Input: raw(`{"text":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	res, err := denied.Result(ctx)
	if err != nil || !res.Results[0].IsError || !strings.Contains(res.Results[0].Content, "Stamp") {
		t.Fatalf("denied: %+v, %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "stamp.txt")); err == nil {
		t.Fatal("a denied call ran")
	}

	hooked, err := run(settingsFile("hooks", `{"hooks":{"PreToolUse":[{"matcher":"Stamp","hooks":[{"type":"command","command":"echo 'stamps are frozen' >&2; exit 2"}]}]}}`),
		toolpipe.Block{ID: "h1", Name: "Stamp", Input: raw(`{"text":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	res, err = hooked.Result(ctx)
	if err != nil || !strings.Contains(res.Results[0].Content, "stamps are frozen") {
		t.Fatalf("hooked: %+v, %v", res, err)
	}

	ask := settingsFile("ask", `{}`)
	ask.Mode = "default"
	asked, err := run(ask, toolpipe.Block{ID: "a1", Name: "Stamp", Input: raw(`{"text":"approved"}`)})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := asked.State(ctx) // may fail before the turn's first workflow task
		if err == nil && len(st.Pending) == 1 && st.Pending[0].ToolUseID == "a1" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the call never waited for approval: %+v, %v", st, err)
		}
		time.Sleep(50 * time.Millisecond) // no event: the state is polled
	}
	if p, err := asked.Approve(ctx, "a1"); err != nil || p.ToolUseID != "a1" || p.Tool != "Stamp" {
		t.Fatalf("approve: %+v, %v", p, err)
	}
	if _, err := asked.Approve(ctx, "a1"); !toolpipe.IsNotAwaitingApproval(err) {
		t.Errorf("approving again: %v, want IsNotAwaitingApproval", err)
	}
	res, err = asked.Result(ctx)
	if err != nil || res.Results[0].Content != "stamped a1" {
		t.Fatalf("approved: %+v, %v", res, err)
	}
	// Once the turn has finished, an answer is refused the same way: whichever side
	// of the turn's end a late answer lands on, the caller sees one error.
	if _, err := asked.Approve(ctx, "a1"); !toolpipe.IsNotAwaitingApproval(err) || !strings.Contains(err.Error(), "the turn has finished") {
		t.Errorf("approving the finished turn: %v, want IsNotAwaitingApproval", err)
	}
	if _, err := asked.Deny(ctx, "a1", "late"); !toolpipe.IsNotAwaitingApproval(err) {
		t.Errorf("denying in the finished turn: %v, want IsNotAwaitingApproval", err)
	}
	if _, err := c.Turn("turn-no-such").Approve(ctx, "a1"); toolpipe.IsNotAwaitingApproval(err) || !toolpipe.IsNotFound(err) {
		t.Errorf("approving in a turn that never ran: %v, want IsNotFound", err)
	}
}

// TestRegisterRefusesBadTools: collisions and bad specs fail when the program
// starts, with what to do.
func TestRegisterRefusesBadTools(t *testing.T) {
	for _, c := range []struct {
		spec toolpipe.ToolSpec
		want string
	}{
		{toolpipe.ToolSpec{Name: "Bash"}, `tool name "Bash" is a built-in tool's; pick another name`},
		{toolpipe.ToolSpec{Name: "mcp__deploy__preview"}, `starts with "mcp__", which names MCP servers' tools`},
		{toolpipe.ToolSpec{Name: "Deploy", Description: "d", InputSchema: raw(`{"type":"object"}`)}, "Run is nil"},
		// Names the SDK would refuse with a panic at registration.
		{toolpipe.ToolSpec{Name: "CallModel", Description: "d", InputSchema: raw(`{"type":"object"}`)}, `"CallModel" is the name of one of toolpipe's activities`},
		{toolpipe.ToolSpec{Name: "__temporal_x", Description: "d", InputSchema: raw(`{"type":"object"}`)}, "reserved"},
	} {
		if _, err := toolpipe.NewTool(c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.spec.Name, err, c.want)
		}
	}
	other := toolpipe.MustTool(toolpipe.ToolSpec{Name: "Stamp", Description: "Another stamp.", InputSchema: raw(`{"type":"object"}`),
		Run: func(context.Context, toolpipe.Call) (toolpipe.Result, error) { return toolpipe.Result{}, nil }})
	c := testenv.Client()
	if _, err := toolpipe.NewPlugin(c, toolpipe.Options{StateDir: t.TempDir(), Tools: []*toolpipe.Tool{stamp}}); err != nil {
		t.Fatal(err)
	}
	// Tools are a worker's: another worker of the process may have another Stamp.
	if _, err := toolpipe.NewPlugin(c, toolpipe.Options{StateDir: t.TempDir(), Tools: []*toolpipe.Tool{other}}); err != nil {
		t.Fatalf("a second worker's own Stamp: %v", err)
	}
	if _, err := toolpipe.NewPlugin(c, toolpipe.Options{StateDir: t.TempDir(), Tools: []*toolpipe.Tool{stamp, other}}); err == nil ||
		!strings.Contains(err.Error(), `Stamp`) {
		t.Fatalf("error %v", err)
	}
	if _, err := toolpipe.NewPlugin(c, toolpipe.Options{StateDir: "relative"}); err == nil {
		t.Fatal("a relative state directory was taken")
	}
	if _, err := toolpipe.NewPlugin(c, toolpipe.Options{StateDir: t.TempDir(), Thresholds: map[string]int{"Bash": -1}}); err == nil ||
		!strings.Contains(err.Error(), `Thresholds["Bash"] is -1`) {
		t.Fatalf("error %v", err)
	}
}

// TestFollowAfterTheTurnEnded: a client that follows after the turn finished (it
// takes no updates then) still gets every result, from the workflow's result.
func TestFollowAfterTheTurnEnded(t *testing.T) {
	c, _ := ownWorker(t, toolpipe.Options{Tools: []*toolpipe.Tool{stamp}})
	ctx := testenv.Context(t)
	turn, err := c.StartTurn(ctx, []toolpipe.Block{{ID: "l1", Name: "Stamp", Input: raw(`{"text":"x"}`)}, {ID: "l2", Name: "Stamp", Input: raw(`{"text":"y"}`)}},
		toolpipe.TurnOptions{SessionID: "s5-" + t.Name(), Workdir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := turn.Result(ctx); err != nil {
		t.Fatal(err)
	}
	var got []string
	res, err := turn.Follow(ctx, func(r toolpipe.ToolResult) { got = append(got, r.Content) })
	if err != nil || len(res.Results) != 2 || strings.Join(got, ",") != "stamped l1,stamped l2" {
		t.Fatalf("Follow after the end: %+v %q, %v", res, got, err)
	}
}

// TestStartTurnAgainAttaches: starting the same message again runs nothing and
// returns its results (a program that crashed after starting it): the turn is
// named by the session and the ids (TurnID), and says it had finished. Another
// message reusing the ids is refused.
func TestStartTurnAgainAttaches(t *testing.T) {
	c, _ := ownWorker(t, toolpipe.Options{Tools: []*toolpipe.Tool{stamp}})
	ctx := testenv.Context(t)
	dir := t.TempDir()
	blocks := []toolpipe.Block{{ID: "a1", Name: "Stamp", Input: raw(`{"text":"first"}`)}}
	opts := toolpipe.TurnOptions{SessionID: "s6-" + t.Name(), Workdir: dir}
	for i := range 2 {
		turn, err := c.StartTurn(ctx, blocks, opts)
		if err != nil {
			t.Fatal(err)
		}
		if turn.ID != toolpipe.TurnID(opts.SessionID, blocks) || turn.Attached() != (i == 1) || (turn.Finished() != nil) != (i == 1) {
			t.Fatalf("start %d: id %s, attached %v, finished %+v", i, turn.ID, turn.Attached(), turn.Finished())
		}
		res, err := turn.Follow(ctx, nil)
		if err != nil || res.Results[0].Content != "stamped a1" {
			t.Fatalf("start %d: %+v, %v", i, res, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "stamp.txt"), []byte("changed"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "stamp.txt")); string(b) != "changed" {
		t.Fatalf("the second start ran the tool again: stamp is %q", b)
	}
	other := []toolpipe.Block{{ID: "a1", Name: "Stamp", Input: raw(`{"text":"another message"}`)}}
	if _, err := c.StartTurn(ctx, other, opts); !toolpipe.IsTurnCollision(err) || !toolpipe.IsInvalidInput(err) {
		t.Fatalf("another message with the same ids: %v, want a TurnCollisionError", err)
	}
}

// TestWorkersOfOneProcessHaveTheirOwnTools: the tools are a worker's, not the
// process's: beside a worker with Stamp, a worker without it tells the model it has
// no such tool, and the first still runs it.
func TestWorkersOfOneProcessHaveTheirOwnTools(t *testing.T) {
	with, _ := ownWorker(t, toolpipe.Options{Tools: []*toolpipe.Tool{stamp}})
	without, _ := ownWorker(t, toolpipe.Options{})
	ctx := testenv.Context(t)
	for _, c := range []struct {
		c    *toolpipe.Client
		id   string
		want string
	}{
		{with, "with-" + t.Name(), "stamped w1"},
		{without, "without-" + t.Name(), "No such tool available: Stamp"},
	} {
		turn, err := c.c.StartTurn(ctx, []toolpipe.Block{{ID: "w1", Name: "Stamp", Input: raw(`{"text":"x"}`)}},
			toolpipe.TurnOptions{SessionID: c.id, Workdir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		res, err := turn.Result(ctx)
		if err != nil || len(res.Results) != 1 || !strings.Contains(res.Results[0].Content, c.want) {
			t.Errorf("%s: %+v, %v; want %q", c.id, res, err, c.want)
		}
	}
}

// TestOptionsModelReachesWebFetch: Options.Model is the endpoint of every model
// user of the worker: WebFetch's page model asks it too, with its key, instead of
// the environment's (where there is none here).
func TestOptionsModelReachesWebFetch(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "")
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><p>Version <b>4.2</b> is out.</p></body></html>")
	}))
	t.Cleanup(page.Close)
	model, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{{Type: wire.BlockText, Text: "Version 4.2."}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(model.Close)
	c, _ := ownWorker(t, toolpipe.Options{WebFetchAllowPrivate: true, Model: &toolpipe.Model{APIKey: "sk-options", BaseURL: model.URL()}})
	ctx := testenv.Context(t)
	turn, err := c.StartTurn(ctx, []toolpipe.Block{{ID: "f1", Name: "WebFetch",
		Input: raw(fmt.Sprintf(`{"url":%q,"prompt":"What version is out?"}`, page.URL+"/page"))}},
		toolpipe.TurnOptions{SessionID: "wf-" + t.Name(), Workdir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := turn.Result(ctx)
	if err != nil || len(res.Results) != 1 || res.Results[0].Content != "Version 4.2." {
		t.Fatalf("result %+v, %v", res, err)
	}
	if reqs := model.Requests(); len(reqs) != 1 || reqs[0].APIKey != "sk-options" {
		t.Fatalf("model requests %+v, want one with Options.Model's key", reqs)
	}
}

// TestProgramsOwnNamesShareTheWorker: a program's worker with its own "Read"
// activity and "Session" workflow takes toolpipe's plugin: toolpipe's names are
// prefixed (contract.Prefix), so nothing collides (the SDK panicked on the second
// "Read" before), and both the program's Read and toolpipe's run.
func TestProgramsOwnNamesShareTheWorker(t *testing.T) {
	queue := testenv.TaskQueue(t)
	p, err := toolpipe.NewPlugin(testenv.Client(), toolpipe.Options{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	w := sdkworker.New(testenv.Client(), queue, sdkworker.Options{Plugins: []sdkworker.Plugin{p}})
	w.RegisterActivityWithOptions(func(ctx context.Context, s string) (string, error) { return "program read " + s, nil },
		activity.RegisterOptions{Name: "Read"})
	w.RegisterWorkflowWithOptions(func(ctx workflow.Context, s string) (string, error) {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		var out string
		err := workflow.ExecuteActivity(ctx, "Read", s).Get(ctx, &out)
		return out, err
	}, workflow.RegisterOptions{Name: "Session"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	ctx := testenv.Context(t)
	run, err := testenv.Client().ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: queue}, "Session", "x")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil || got != "program read x" {
		t.Fatalf("the program's Session: %q, %v", got, err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("toolpipe's read\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := toolpipe.NewClient(testenv.Client(), queue)
	turn, err := c.StartTurn(ctx, []toolpipe.Block{{ID: "r1", Name: "Read", Input: raw(`{"file_path":"` + filepath.Join(dir, "a.txt") + `"}`)}},
		toolpipe.TurnOptions{SessionID: "names-" + t.Name(), Workdir: dir})
	if err != nil {
		t.Fatal(err)
	}
	res, err := turn.Result(ctx)
	if err != nil || len(res.Results) != 1 || !strings.Contains(res.Results[0].Content, "toolpipe's read") {
		t.Fatalf("toolpipe's Read: %+v, %v", res, err)
	}
}
