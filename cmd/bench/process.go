package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// cost: history events and bytes per tool call, from a 10-tool parallel turn.
func (b *bench) cost() error {
	var bs []tool.Block
	small := filepath.Join(b.work, "small.txt")
	for i := range 10 {
		bs = append(bs, tool.Block{ID: fmt.Sprintf("c-%d", i), Name: tool.ReadName, Input: raw(map[string]any{"file_path": small})})
	}
	if _, _, err := b.durable("cost", workflows.TurnInput{Blocks: bs, CloseIntake: true}); err != nil {
		return err
	}
	iter := b.c.GetWorkflowHistory(b.ctx, "cost", "", false, 0)
	events, size := 0, 0
	var kinds []string
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			return err
		}
		events++
		size += eventSize(ev)
		kinds = append(kinds, eventKind(ev))
	}
	if b.verbose {
		// Which events a turn costs, to tell a new one apart when the count moves.
		for i, k := range kinds {
			fmt.Fprintf(os.Stderr, "  cost turn event %d: %s\n", i+1, k)
		}
	}
	per := float64(events) / 10
	b.add(row{"5. cost", "history events / bytes per tool call (10 parallel Reads)",
		fmt.Sprintf("%.1f events, %d bytes", per, size/10), target(true, "≤ 4 events", per <= 4)})
	return nil
}

// eventKind names an event by its type and, for markers and search-attribute
// upserts, what it records.
func eventKind(ev *historypb.HistoryEvent) string {
	k := ev.GetEventType().String()
	if a := ev.GetMarkerRecordedEventAttributes(); a != nil {
		k += " " + a.GetMarkerName()
		if id, ok := a.GetDetails()["change-id"]; ok && len(id.GetPayloads()) > 0 {
			k += " " + string(id.GetPayloads()[0].GetData())
		}
	}
	if a := ev.GetUpsertWorkflowSearchAttributesEventAttributes(); a != nil {
		var names []string
		for n := range a.GetSearchAttributes().GetIndexedFields() {
			names = append(names, n)
		}
		sort.Strings(names)
		k += " " + strings.Join(names, ",")
	}
	return k
}

// workerBinary builds cmd/worker once, for the runs that need a worker to kill.
func (b *bench) workerBinary() (string, error) {
	bin := filepath.Join(filepath.Dir(b.state), "worker")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/worker")
	cmd.Stderr = os.Stderr
	return bin, cmd.Run()
}

// childWorker starts a worker process on the bench's server and task queue.
func (b *bench) childWorker(queue string) (*exec.Cmd, error) {
	bin, err := b.workerBinary()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "--state-dir", b.state, "--task-queue", queue, "--log-level", "error")
	cmd.Env = append(os.Environ(), "TEMPORAL_ADDRESS="+b.srv.FrontendAddress())
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		once := false
		for sc.Scan() {
			if !once && strings.Contains(sc.Text(), "worker: running") {
				once = true
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
		return cmd, nil
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		return nil, fmt.Errorf("child worker did not start")
	}
}

// recoveryHeartbeat is the turn's heartbeat timeout in the recovery scenario: the
// default, so that the figure shows what a user gets, not a tuned detector.
const recoveryHeartbeat = 20 * time.Second

// recovery: a worker process is SIGKILLed while a turn's side-effecting tool runs;
// measured is the time from a new worker's start to the turn's completion.
func (b *bench) recovery() error {
	var times, starts []time.Duration
	for n := range 3 {
		queue := fmt.Sprintf("recovery-%d", n)
		first, err := b.childWorker(queue)
		if err != nil {
			return err
		}
		marker := filepath.Join(b.work, fmt.Sprintf("recovery-%d", n))
		run, err := b.c.ExecuteWorkflow(b.ctx, client.StartWorkflowOptions{ID: queue, TaskQueue: queue}, contract.TurnWorkflowName,
			workflows.TurnInput{SessionID: "bench", Workdir: b.work, CloseIntake: true, Options: workflows.TurnOptions{HeartbeatTimeout: recoveryHeartbeat},
				Blocks: []tool.Block{{ID: "k", Name: tool.BashName, Input: raw(map[string]any{"command": "touch " + marker + "; sleep 60"})}}})
		if err != nil {
			return err
		}
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if _, err := os.Stat(marker); err == nil {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("recovery: the tool never started")
			}
		}
		first.Process.Signal(syscall.SIGKILL)
		first.Wait()
		start := time.Now()
		second, err := b.childWorker(queue)
		if err != nil {
			return err
		}
		starts = append(starts, time.Since(start))
		var res workflows.TurnResult
		err = run.Get(b.ctx, &res)
		times = append(times, time.Since(start))
		second.Process.Signal(syscall.SIGTERM)
		second.Wait()
		if err != nil {
			return err
		}
		if len(res.Results) != 1 || res.Results[0].Content != workflows.LostWorkerMessage {
			return fmt.Errorf("recovery: unexpected result %+v", res.Results)
		}
	}
	b.add(row{"4. recovery", "new worker start → turn complete, after SIGKILL (heartbeat timeout 20 s, the default), p50 / max of 3",
		ms(pct(times, 50)) + " / " + ms(pct(times, 100)), target(true, "≤ 1 s", pct(times, 50) <= time.Second)})
	b.add(row{"4. recovery", "… of which the new worker process's start (exec → it polls), p50", ms(pct(starts, 50)), "(no target)"})
	return nil
}

// memory: a worker process holding 200 open turns (each with a completed tool and
// its intake still open).
func (b *bench) memory() error {
	const queue = "memory"
	w, err := b.childWorker(queue)
	if err != nil {
		return err
	}
	defer func() { w.Process.Signal(syscall.SIGTERM); w.Wait() }()
	small := filepath.Join(b.work, "small.txt")
	for i := range 200 {
		id := fmt.Sprintf("open-%d", i)
		if _, err := b.c.ExecuteWorkflow(b.ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, contract.TurnWorkflowName,
			workflows.TurnInput{SessionID: "bench", Workdir: b.work, Blocks: []tool.Block{{ID: id, Name: tool.ReadName, Input: raw(map[string]any{"file_path": small})}}}); err != nil {
			return err
		}
	}
	// Collect from each turn: once all 200 answered, every turn is open and settled.
	for i := range 200 {
		h, err := b.c.UpdateWorkflow(b.ctx, client.UpdateWorkflowOptions{WorkflowID: fmt.Sprintf("open-%d", i), UpdateName: contract.CollectUpdate,
			Args: []any{workflows.CollectRequest{}}, WaitForStage: client.WorkflowUpdateStageCompleted})
		if err == nil {
			err = h.Get(b.ctx, nil)
		}
		if err != nil {
			return err
		}
	}
	rss, err := rssMB(w.Process.Pid)
	if err != nil {
		return err
	}
	b.add(row{"5. cost", "worker process RSS with 200 open turns", fmt.Sprintf("%.0f MB", rss), target(true, "< 200 MB", rss < 200)})
	return nil
}

func rssMB(pid int) (float64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.Atoi(f[1])
			return float64(kb) / 1024, err
		}
	}
	return 0, fmt.Errorf("no VmRSS for %d", pid)
}
