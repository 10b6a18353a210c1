package toolpipe_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/workflows"
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
	w := sdkworker.New(testenv.Client(), queue, toolpipe.WorkerOptions(sdkworker.Options{}))
	w.RegisterWorkflowWithOptions(Greet, workflow.RegisterOptions{Name: "Greet"})
	if opts.StateDir == "" {
		opts.StateDir = t.TempDir()
	}
	reg, err := toolpipe.Register(w, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Stop(); _ = reg.Close() })
	return toolpipe.NewClient(testenv.Client(), queue), queue
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

	turn, err := c.StartTurn(ctx, "turn-"+t.Name(), toolpipe.TurnInput{SessionID: "s1", Workdir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := turn.AddBlocks(ctx,
		toolpipe.Block{ID: "w1", Name: "Stamp", Input: raw(`{"text":"v1"}`)},
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
	for from := 0; ; {
		r, err := turn.Collect(ctx, from)
		if err != nil {
			t.Fatal(err)
		}
		got, from = append(got, r.Results...), r.Next
		if r.Done {
			break
		}
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
	deny, err := permissions.ParseRuleFor("Stamp", func(name string) bool { return name == "Stamp" })
	if err != nil {
		t.Fatal(err)
	}
	run := func(id string, settings *workflows.TurnSettings, blocks ...toolpipe.Block) (*toolpipe.Turn, error) {
		return c.StartTurn(ctx, id, toolpipe.TurnInput{SessionID: "s2", Workdir: dir, Settings: settings, CloseIntake: true, Blocks: blocks})
	}

	denied, err := run("denied-"+t.Name(), &workflows.TurnSettings{Permissions: &permissions.Policy{Deny: []permissions.Rule{deny}, WorkDir: dir}},
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

	hooked, err := run("hooked-"+t.Name(), &workflows.TurnSettings{Hooks: hooks.Config{PreToolUse: []hooks.Group{
		{Matcher: "Stamp", Hooks: []hooks.Command{{Command: "echo 'stamps are frozen' >&2; exit 2"}}}}}},
		toolpipe.Block{ID: "h1", Name: "Stamp", Input: raw(`{"text":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	res, err = hooked.Result(ctx)
	if err != nil || !strings.Contains(res.Results[0].Content, "stamps are frozen") {
		t.Fatalf("hooked: %+v, %v", res, err)
	}

	asked, err := run("asked-"+t.Name(), &workflows.TurnSettings{Permissions: &permissions.Policy{WorkDir: dir}},
		toolpipe.Block{ID: "a1", Name: "Stamp", Input: raw(`{"text":"approved"}`)})
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
	if err := asked.Approve(ctx, "a1"); err != nil {
		t.Fatal(err)
	}
	res, err = asked.Result(ctx)
	if err != nil || res.Results[0].Content != "stamped a1" {
		t.Fatalf("approved: %+v, %v", res, err)
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
	w := sdkworker.New(testenv.Client(), testenv.TaskQueue(t), sdkworker.Options{})
	if _, err := toolpipe.Register(w, toolpipe.Options{StateDir: t.TempDir(), Tools: []*toolpipe.Tool{stamp}}); err != nil {
		t.Fatal(err)
	}
	if _, err := toolpipe.Register(w, toolpipe.Options{StateDir: t.TempDir(), Tools: []*toolpipe.Tool{other}}); err == nil ||
		!strings.Contains(err.Error(), `Register was already called on this worker`) {
		t.Fatalf("error %v", err)
	}
	if _, err := toolpipe.Register(w, toolpipe.Options{StateDir: "relative"}); err == nil {
		t.Fatal("a relative state directory was taken")
	}
	if _, err := toolpipe.Register(w, toolpipe.Options{StateDir: t.TempDir(), Thresholds: map[string]int{"Bash": -1}}); err == nil ||
		!strings.Contains(err.Error(), `Thresholds["Bash"] is -1`) {
		t.Fatalf("error %v", err)
	}
}

// TestCollectAfterTheTurnEnded: a client that collects after the turn finished (it
// takes no updates then) still gets the results, from the workflow's result.
func TestCollectAfterTheTurnEnded(t *testing.T) {
	c, _ := ownWorker(t, toolpipe.Options{Tools: []*toolpipe.Tool{stamp}})
	ctx := testenv.Context(t)
	turn, err := c.StartTurn(ctx, "late-"+t.Name(), toolpipe.TurnInput{SessionID: "s5", Workdir: t.TempDir(), CloseIntake: true,
		Blocks: []toolpipe.Block{{ID: "l1", Name: "Stamp", Input: raw(`{"text":"x"}`)}, {ID: "l2", Name: "Stamp", Input: raw(`{"text":"y"}`)}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := turn.Result(ctx); err != nil {
		t.Fatal(err)
	}
	r, err := turn.Collect(ctx, 1)
	if err != nil || !r.Done || r.Next != 2 || len(r.Results) != 1 || r.Results[0].Content != "stamped l2" {
		t.Fatalf("Collect after the end: %+v, %v", r, err)
	}
	if _, err := turn.Collect(ctx, 3); err == nil {
		t.Fatal("a cursor past the results was taken")
	}
}

// TestStartTurnAgainAttaches: starting a finished turn's id again runs nothing and
// returns its results (a program that crashed after starting it).
func TestStartTurnAgainAttaches(t *testing.T) {
	c, _ := ownWorker(t, toolpipe.Options{Tools: []*toolpipe.Tool{stamp}})
	ctx := testenv.Context(t)
	dir := t.TempDir()
	in := toolpipe.TurnInput{SessionID: "s6", Workdir: dir, CloseIntake: true,
		Blocks: []toolpipe.Block{{ID: "a1", Name: "Stamp", Input: raw(`{"text":"first"}`)}}}
	for i := range 2 {
		turn, err := c.StartTurn(ctx, "again-"+t.Name(), in)
		if err != nil {
			t.Fatal(err)
		}
		res, err := turn.Result(ctx)
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
		turn, err := c.c.StartTurn(ctx, c.id, toolpipe.TurnInput{SessionID: "s6", Workdir: t.TempDir(), CloseIntake: true,
			Blocks: []toolpipe.Block{{ID: "w1", Name: "Stamp", Input: raw(`{"text":"x"}`)}}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := turn.Result(ctx)
		if err != nil || len(res.Results) != 1 || !strings.Contains(res.Results[0].Content, c.want) {
			t.Errorf("%s: %+v, %v; want %q", c.id, res, err, c.want)
		}
	}
}
