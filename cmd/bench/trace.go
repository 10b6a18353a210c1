package main

import (
	"context"
	"path"
	"sort"
	"sync"
	"time"

	"google.golang.org/grpc"
)

// rpcTrace records when the worker's and client's calls to the server start and
// end, so a sequential step can be split on the worker's side too: how long the
// server takes to answer each call, and how long the worker takes between calls.
// It records only while on.
type rpcTrace struct {
	mu    sync.Mutex
	on    bool
	calls []rpcCall
}

type rpcCall struct {
	method     string
	start, end time.Time
}

func (t *rpcTrace) interceptor(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	start := time.Now()
	err := invoker(ctx, method, req, reply, cc, opts...)
	end := time.Now()
	t.mu.Lock()
	if t.on {
		t.calls = append(t.calls, rpcCall{path.Base(method), start, end})
	}
	t.mu.Unlock()
	return err
}

// record turns recording on and forgets earlier calls.
func (t *rpcTrace) record(on bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.on, t.calls = on, nil
}

func (t *rpcTrace) snapshot() []rpcCall {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]rpcCall(nil), t.calls...)
}

// workerPhases walks the calls of one sequential turn (nothing else running) in
// the order they were made and measures, per step after the first tool:
//
//	RespondActivityTaskCompleted: server time (history's update and commit)
//	→ the workflow task poll returns: the wait for the next workflow task
//	→ RespondWorkflowTaskCompleted sent: the worker runs the workflow task
//	RespondWorkflowTaskCompleted: server time (commit; the eager activity returns with it)
//	→ the tool starts in the worker (starts, the recorder's times, in order)
func workerPhases(calls []rpcCall, starts []time.Time) (actRPC, wftWait, wftRun, wftRPC, toTool []time.Duration) {
	var actDone time.Time
	var polled time.Time
	var wftEnd time.Time
	next := 0
	// Calls in the order they ended, which is the order the step's parts happen in.
	sortCalls(calls)
	for _, c := range calls {
		switch c.method {
		case "RespondActivityTaskCompleted":
			actRPC = append(actRPC, c.end.Sub(c.start))
			actDone = c.end
		case "PollWorkflowTaskQueue":
			if !actDone.IsZero() && c.end.After(actDone) && polled.IsZero() {
				wftWait = append(wftWait, c.end.Sub(actDone))
				polled = c.end
			}
		case "RespondWorkflowTaskCompleted":
			if !polled.IsZero() {
				wftRun = append(wftRun, c.start.Sub(polled))
				wftRPC = append(wftRPC, c.end.Sub(c.start))
				wftEnd = c.end
				for next < len(starts) && starts[next].Before(wftEnd) {
					next++
				}
				if next < len(starts) {
					toTool = append(toTool, starts[next].Sub(wftEnd))
				}
				polled, actDone = time.Time{}, time.Time{}
			}
		}
	}
	return
}

func sortCalls(cs []rpcCall) {
	sort.Slice(cs, func(i, j int) bool { return cs[i].end.Before(cs[j].end) })
}
