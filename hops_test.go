package toolpipe_test

import (
	"context"
	"path"
	"path/filepath"
	"sync"
	"testing"

	"go.temporal.io/sdk/client"
	"google.golang.org/grpc"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/persistence"
)

// rpcCounter counts the gRPC calls a client makes, by method name.
type rpcCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (r *rpcCounter) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	err := invoker(ctx, method, req, reply, cc, opts...)
	r.mu.Lock()
	r.n[path.Base(method)]++
	if err != nil {
		r.n[path.Base(method)+" failed"]++
	}
	r.mu.Unlock()
	return err
}

// take returns the counts since the last take.
func (r *rpcCounter) take() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.n
	r.n = map[string]int{}
	return n
}

// countedClient is a client of the shared server, keeping large payloads in the
// state directory as toolpipe's do, whose calls are counted.
func countedClient(t *testing.T, stateDir string) (client.Client, *rpcCounter) {
	t.Helper()
	d, err := persistence.NewPayloadDriver(filepath.Join(stateDir, persistence.PayloadDirName))
	if err != nil {
		t.Fatal(err)
	}
	r := &rpcCounter{n: map[string]int{}}
	c := testenv.Server().NewClientWithOptions(client.Options{ExternalStorage: d.ExternalStorage(),
		ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(r.intercept)}}})
	t.Cleanup(c.Close)
	return c, r
}

// Each hop of a turn once (issue 25 item 6). Starting a turn is one RPC: no
// DescribeWorkflowExecution before it starts (the CLI made three: a legacy id, the
// message digest, the queue to adopt); attaching to it again is one more, which
// tells whose message it ran and where. The search attributes are asked once per
// client. Following it takes one Collect per batch of results and nothing else:
// no GetWorkflowExecutionHistory for the result, which came with the last Collect.
func TestTurnHopsOnce(t *testing.T) {
	stateDir, work := t.TempDir(), t.TempDir()
	c, rpcs := countedClient(t, stateDir)
	queue, _ := stoppableWorker(t, c, stateDir)
	ctx := testenv.Context(t)
	tp := toolpipe.NewClient(c, queue, toolpipe.WithStateDir(stateDir))
	blocks := []toolpipe.Block{{ID: "g1", Name: "Glob", Input: raw(`{"pattern":"*"}`)}, {ID: "g2", Name: "Glob", Input: raw(`{"pattern":"*.go"}`)}}
	opts := toolpipe.TurnOptions{SessionID: "hops-" + filepath.Base(filepath.Dir(work)), Workdir: work} // new on every run of the shared server
	rpcs.take()

	turn, err := tp.StartTurn(ctx, blocks, opts)
	if err != nil {
		t.Fatal(err)
	}
	start := rpcs.take()
	t.Logf("start %v; follow, attach below", start)
	if start["DescribeWorkflowExecution"] != 0 || start["StartWorkflowExecution"] != 1 || start["ListSearchAttributes"] != 1 {
		t.Errorf("a fresh start made %v; want one StartWorkflowExecution, one ListSearchAttributes and no DescribeWorkflowExecution", start)
	}
	res, err := turn.Follow(ctx, nil)
	if err != nil || len(res.Results) != 2 {
		t.Fatalf("follow: %+v, %v", res, err)
	}
	follow := rpcs.take()
	t.Logf("follow %v", follow)
	// The turn may close between two Collects (its last result came with the one
	// before, its end after): the next is refused, and then, and only then, the
	// result is read from the history once.
	closedUnder := follow["UpdateWorkflowExecution failed"] == 1 && follow["GetWorkflowExecutionHistory"] == 1
	if (follow["GetWorkflowExecutionHistory"] != 0 && !closedUnder) || follow["QueryWorkflow"] != 0 || follow["DescribeWorkflowExecution"] != 0 ||
		follow["UpdateWorkflowExecution"] < 1 || follow["UpdateWorkflowExecution"] > 2 {
		t.Errorf("following made %v; want one or two Collect updates (UpdateWorkflowExecution) and nothing else, or a history read after a Collect the closed turn refused", follow)
	}

	again, err := tp.StartTurn(ctx, blocks, opts)
	if err != nil {
		t.Fatal(err)
	}
	attach := rpcs.take()
	t.Logf("attach %v", attach)
	if attach["DescribeWorkflowExecution"] != 1 || attach["StartWorkflowExecution"] != 1 || attach["ListSearchAttributes"] != 0 {
		t.Errorf("attaching made %v; want one StartWorkflowExecution and one DescribeWorkflowExecution (the attributes known)", attach)
	}
	if again.Finished() == nil || again.TaskQueue() != queue {
		t.Errorf("attached turn: finished %+v, queue %q; want finished on %q", again.Finished(), again.TaskQueue(), queue)
	}
}
