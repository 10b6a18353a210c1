package reliability

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// longToolsEnv turns on TestManyLongToolsOnOneWorker: 500 concurrent 30-second
// tools take a few minutes of a busy machine. TOOLPIPE_RELIABILITY_LONG_TOOLS=N
// runs N instead of 500.
const longToolsEnv = "TOOLPIPE_RELIABILITY_LONG_TOOLS"

// TestManyLongToolsOnOneWorker runs 500 concurrent 30-second Bash calls (one per
// turn) on one worker process. Under that load a heartbeat RPC often takes longer
// than the SDK's own heartbeat deadline, and the SDK then cancels the activity
// (206 of 500 were killed before worker/heartbeat.go); the worker only stops a tool
// when the server says so or the heartbeat timeout has really passed. Every call
// must complete with its own output.
func TestManyLongToolsOnOneWorker(t *testing.T) {
	n := 0
	if v := os.Getenv(longToolsEnv); v == "1" {
		n = 500
	} else if v != "" {
		n, _ = strconv.Atoi(v)
	}
	if n <= 0 {
		t.Skipf("set %s=1 (500 tools) or =N to run", longToolsEnv)
	}
	e := newEnv(t)
	e.startWorkerProcess()
	work := t.TempDir()
	begin := time.Now()
	runs := make([]workflows.TurnResult, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		run := e.start(fmt.Sprintf("long-%d", i), workflows.TurnInput{Workdir: work, CloseIntake: true,
			Blocks: []tool.Block{bash(fmt.Sprintf("l%d", i), fmt.Sprintf("sleep 30; echo long-%d", i))}})
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = run.Get(testenv.Context(t), &runs[i]) }()
	}
	wg.Wait()
	killed := 0
	for i := range n {
		want := fmt.Sprintf("long-%d\n", i)
		if errs[i] != nil {
			t.Errorf("turn %d: %v", i, errs[i])
			killed++
			continue
		}
		if r := runs[i].Results; len(r) != 1 || r[0].IsError || r[0].Content != want {
			killed++
			if killed <= 5 {
				t.Errorf("turn %d: %+v, want %q", i, r, want)
			}
		}
	}
	t.Logf("%d concurrent 30-second tools on one worker: %d killed or wrong, all done in %v", n, killed, time.Since(begin).Round(time.Second))
	if killed > 0 {
		t.Errorf("%d of %d tools were killed or answered wrong", killed, n)
	}
}
