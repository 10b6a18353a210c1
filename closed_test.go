package toolpipe_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"google.golang.org/grpc"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/wire"
)

// countingClient is a client of the shared server, keeping large payloads in the
// state directory's store as toolpipe's clients do, that counts the QueryWorkflow
// calls it makes.
func countingClient(t *testing.T, stateDir string) (client.Client, *atomic.Int32) {
	t.Helper()
	d, err := persistence.NewPayloadDriver(filepath.Join(stateDir, persistence.PayloadDirName))
	if err != nil {
		t.Fatal(err)
	}
	var queries atomic.Int32
	count := func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if strings.HasSuffix(method, "/QueryWorkflow") {
			queries.Add(1)
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
	c := testenv.Server().NewClientWithOptions(client.Options{ExternalStorage: d.ExternalStorage(),
		ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(count)}}})
	t.Cleanup(c.Close)
	return c, &queries
}

// stoppableWorker runs toolpipe on its own queue of the shared server until stop.
func stoppableWorker(t *testing.T, c client.Client, stateDir string) (queue string, stop func()) {
	t.Helper()
	queue = testenv.TaskQueue(t)
	p, err := toolpipe.NewPlugin(c, toolpipe.Options{StateDir: stateDir})
	if err != nil {
		t.Fatal(err)
	}
	w := sdkworker.New(c, queue, sdkworker.Options{Plugins: []sdkworker.Plugin{p}})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			w.Stop()
		}
	}
	t.Cleanup(stop)
	return queue, stop
}

// A closed turn's state comes from its history, with no worker polling its queue
// and without a query: each call in arrival order with its name, description and
// whether it failed, a streamed block kept outside history (a 200 KB Write) read
// from the payload store. Without WithStateDir that block cannot be read, and the
// error says so.
func TestClosedTurnStateComesFromItsHistory(t *testing.T) {
	stateDir, work := t.TempDir(), t.TempDir()
	c, queries := countingClient(t, stateDir)
	queue, stop := stoppableWorker(t, c, stateDir)
	ctx := testenv.Context(t)
	tp := toolpipe.NewClient(c, queue, toolpipe.WithStateDir(stateDir))
	turn, err := tp.StartTurn(ctx, []toolpipe.Block{
		{ID: "g1", Name: "Glob", Input: raw(`{"pattern":"*.txt"}`)},
		{ID: "n1", Name: "Nope", Input: raw(`{}`)},
	}, toolpipe.TurnOptions{SessionID: "s1-" + t.Name(), Workdir: work, Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	big, _ := json.Marshal(map[string]string{"file_path": filepath.Join(work, "big.txt"), "content": strings.Repeat("x", 200<<10)})
	if err := turn.AddBlocks(ctx, toolpipe.Block{ID: "w1", Name: "Write", Input: big},
		toolpipe.Block{ID: "r1", Name: "Read", Input: raw(`{"file_path":"` + filepath.Join(work, "missing.txt") + `"}`)}); err != nil {
		t.Fatal(err)
	}
	if err := turn.CloseIntake(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := turn.Result(ctx); err != nil {
		t.Fatal(err)
	}
	stop() // nothing polls the queue now: a query would wait for its timeout
	before := queries.Load()

	st, err := tp.Turn(turn.ID).State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := queries.Load() - before; n != 0 {
		t.Errorf("State of a closed turn made %d QueryWorkflow calls, want none", n)
	}
	got := map[string]toolpipe.ToolState{}
	for _, ts := range st.Tools {
		got[ts.ID] = ts
	}
	if len(st.Tools) != 4 || !st.IntakeClosed {
		t.Fatalf("state %+v", st)
	}
	for id, want := range map[string]struct {
		name, desc string
		isError    bool
	}{
		"g1": {"Glob", "Glob(*.txt)", false}, "n1": {"Nope", "Nope()", true},
		"w1": {"Write", "Write(/", false}, "r1": {"Read", "Read(/", true},
	} {
		ts := got[id]
		if ts.Name != want.name || ts.Status != toolpipe.StatusYielded || ts.IsError != want.isError ||
			!strings.HasPrefix(ts.Description, want.desc) {
			t.Errorf("%s: %+v, want %s %q… yielded, error %v", id, ts, want.name, want.desc, want.isError)
		}
	}
	if !got["g1"].Safe || got["w1"].Safe {
		t.Errorf("safety: Glob %v, Write %v", got["g1"].Safe, got["w1"].Safe)
	}

	_, err = toolpipe.NewClient(c, queue).Turn(turn.ID).State(ctx)
	if err == nil || !strings.Contains(err.Error(), "WithStateDir") {
		t.Errorf("without the state directory: %v, want an error saying WithStateDir", err)
	}
}

// A closed session's state and events come from its history without a query: phase
// done, its turns, usage and stop reason; Events says Done.
func TestClosedSessionStateComesFromItsHistory(t *testing.T) {
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{{Type: wire.BlockToolUse, ID: "t1", Name: "Glob", Input: raw(`{"pattern":"*.go"}`)}}},
		{Content: []wire.Block{{Type: "text", Text: "done"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	t.Setenv("ANTHROPIC_BASE_URL", fake.URL())
	t.Setenv("ANTHROPIC_API_KEY", "fake")
	stateDir := t.TempDir()
	c, queries := countingClient(t, stateDir)
	queue, stop := stoppableWorker(t, c, stateDir)
	ctx := testenv.Context(t)
	tp := toolpipe.NewClient(c, queue, toolpipe.WithStateDir(stateDir))
	s, err := tp.StartSession(ctx, toolpipe.SessionOptions{SessionID: "closed-" + t.Name(), Workdir: t.TempDir(), Prompt: "look",
		Model: "claude-test"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Result(ctx); err != nil {
		t.Fatal(err)
	}
	stop()
	before := queries.Load()
	st, err := tp.Session("closed-" + t.Name()).State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	events, next, done, err := tp.Session("closed-"+t.Name()).Events(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if n := queries.Load() - before; n != 0 {
		t.Errorf("State and Events of a closed session made %d QueryWorkflow calls, want none", n)
	}
	if st.Phase != toolpipe.PhaseDone || st.Turns != 2 || st.LastTurn != 1 || st.StopReason != "end_turn" || st.Model != "claude-test" ||
		st.Messages == 0 || st.Usage.OutputTokens == 0 {
		t.Errorf("state %+v", st)
	}
	if !done || next != 3 || len(events) != 0 {
		t.Errorf("events %+v next %d done %v, want done at cursor 3", events, next, done)
	}
}
