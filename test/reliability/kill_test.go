package reliability

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// The calls of each turn in the kill test: side-effecting Bash calls append their id
// to a file of their own (then linger, so that kills land while they run), and
// read-only ones print a fixed text.
var killTurnCalls = []struct {
	id       string
	sideEff  bool
	readText string
}{
	{id: "w1", sideEff: true},
	{id: "r1", readText: "r1"},
	{id: "w2", sideEff: true},
	{id: "r2", readText: "r2"},
	{id: "w3", sideEff: true},
}

// TestWorkerSIGKILLAcrossTurns runs turns on a worker process and kills it with
// SIGKILL at random points (just after a side effect, plus a random delay),
// restarting it each time, until every turn completes. Then: every turn has all its
// results; a side-effecting call that completed ran exactly once; one whose worker
// died reports the design's interrupted text (DESIGN §6) and ran at most once; read-only calls were
// retried and succeeded. The seed is fixed, so two runs aim at the same kill points;
// TOOLPIPE_RELIABILITY_SEED picks another (the one in force is logged).
// Fast: 10 turns, 3 kills; TOOLPIPE_RELIABILITY_FULL=1: 50 turns, 12 kills.
func TestWorkerSIGKILLAcrossTurns(t *testing.T) {
	turns, kills := 10, 3
	if full() {
		turns, kills = 50, 12
	}
	seed := uint64(20261130)
	if s := os.Getenv("TOOLPIPE_RELIABILITY_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("TOOLPIPE_RELIABILITY_SEED=%q is not an unsigned integer", s)
		}
	}
	t.Logf("seed %d (TOOLPIPE_RELIABILITY_SEED=%d replays the kill points)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	e := newEnv(t)
	work := t.TempDir()
	lines := filepath.Join(work, "lines")
	os.Mkdir(lines, 0o755)
	worker := e.startWorkerProcess()

	// Turns run two at a time, so that a kill interrupts a few calls rather than
	// every turn's first one, and the run mixes completed and interrupted calls.
	const parallel = 2
	var done atomic.Int32
	results := make([]workflows.TurnResult, turns)
	errs := make(chan error, turns)
	slots := make(chan struct{}, parallel)
	ctx := testenv.Context(t)
	go func() {
		for i := range turns {
			slots <- struct{}{}
			var blocks []tool.Block
			for _, c := range killTurnCalls {
				id := fmt.Sprintf("t%d-%s", i, c.id)
				if c.sideEff {
					blocks = append(blocks, bash(id, fmt.Sprintf("echo %s >> lines/%s; sleep 0.3", id, id)))
				} else {
					blocks = append(blocks, bash(id, "sleep 0.1; echo "+c.readText))
				}
			}
			run, err := e.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: fmt.Sprintf("%s-kill-%d", e.queue, i), TaskQueue: e.queue},
				contract.TurnWorkflowName, workflows.TurnInput{
					SessionID: "s", Workdir: work, Blocks: blocks, CloseIntake: true,
					// A dead worker is noticed after 2s; read-only calls get enough
					// attempts to outlive every kill of the run.
					Options: workflows.TurnOptions{HeartbeatTimeout: 2 * time.Second, SafeAttempts: int32(kills + 3)},
				})
			go func() {
				if err == nil {
					err = run.Get(ctx, &results[i])
				}
				<-slots
				done.Add(1)
				errs <- err
			}()
		}
	}()

	countLines := func() int {
		entries, _ := os.ReadDir(lines)
		return len(entries)
	}
	sideEffects := 0
	for _, c := range killTurnCalls {
		if c.sideEff {
			sideEffects++
		}
	}
	for k := range kills {
		// Kill just after a random number of further side effects happened (their
		// tools then linger 300ms), plus up to 300ms of jitter: the gaps average
		// half a (kills+1)th of the run (calls cancelled after a kill never add a
		// side effect), so the points spread over most of it.
		target := countLines() + 1 + rng.IntN(sideEffects*turns/(kills+1))
		poll(t, "side effects before a kill", 2*time.Minute, func() bool {
			return countLines() >= target || int(done.Load()) == turns
		})
		if int(done.Load()) == turns {
			t.Logf("all turns completed after %d kills", k)
			break
		}
		time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond) // fault-injection jitter, not a wait
		worker.kill()
		t.Logf("kill %d: SIGKILL with %d side effects done", k+1, countLines())
		worker = e.startWorkerProcess()
	}
	for range turns {
		if err := <-errs; err != nil {
			t.Fatalf("a turn failed: %v", err)
		}
	}

	var completed, interrupted, cancelled int
	for i, res := range results {
		if len(res.Results) != len(killTurnCalls) {
			t.Errorf("turn %d has %d results, want %d: %+v", i, len(res.Results), len(killTurnCalls), res.Results)
			continue
		}
		for j, c := range killTurnCalls {
			id := fmt.Sprintf("t%d-%s", i, c.id)
			r := res.Results[j]
			if r.ToolUseID != id {
				t.Errorf("turn %d result %d is %s, want %s (arrival order)", i, j, r.ToolUseID, id)
				continue
			}
			isCancel := r.IsError && strings.HasPrefix(r.Content, "Cancelled: parallel tool call Bash(")
			if !c.sideEff {
				if !isCancel && (r.IsError || r.Content != c.readText) {
					t.Errorf("read-only %s: %+v, want it retried to success", id, r)
				}
				continue
			}
			b, _ := os.ReadFile(filepath.Join(lines, id))
			ran := strings.Count(string(b), id+"\n")
			switch {
			case !r.IsError && r.Content == "(Bash completed with no output)":
				completed++
				if ran != 1 {
					t.Errorf("%s completed but ran %d times", id, ran)
				}
			case r.IsError && r.Content == workflows.LostWorkerMessage:
				interrupted++
				if ran > 1 {
					t.Errorf("%s was interrupted and then ran again: %d times", id, ran)
				}
			case isCancel:
				// A lost side-effecting Bash is a Bash error: its queued siblings are
				// cancelled before they start (DESIGN §3.6).
				cancelled++
				if ran != 0 {
					t.Errorf("%s was cancelled before it started but ran %d times", id, ran)
				}
			default:
				t.Errorf("%s: unexpected result %+v", id, r)
			}
		}
	}
	t.Logf("side-effecting calls: %d completed, %d interrupted, %d cancelled", completed, interrupted, cancelled)
	if interrupted == 0 {
		t.Errorf("no kill interrupted a running side-effecting call: the test exercised nothing (seed %d)", seed)
	}
	e.healthy()
}
