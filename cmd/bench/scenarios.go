package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

func raw(v any) json.RawMessage { b, _ := json.Marshal(v); return b }

// turnShape builds the blocks of one benchmark turn; n makes ids and files unique.
type turnShape struct {
	name   string
	blocks func(n int) []tool.Block
}

func (b *bench) shapes() []turnShape {
	small := filepath.Join(b.work, "small.txt")
	os.WriteFile(small, []byte("a small file\n"), 0o644)
	return []turnShape{
		{"10 parallel safe tools of 200 ms", func(n int) []tool.Block {
			var bs []tool.Block
			for i := range 10 {
				bs = append(bs, tool.Block{ID: fmt.Sprintf("p%d-%d", n, i), Name: tool.BashName, Input: raw(map[string]any{"command": "sleep 0.2"})})
			}
			return bs
		}},
		{"10 non-safe edits in a row", func(n int) []tool.Block {
			var bs []tool.Block
			for i := range 10 {
				bs = append(bs, tool.Block{ID: fmt.Sprintf("w%d-%d", n, i), Name: tool.WriteName,
					Input: raw(map[string]any{"file_path": filepath.Join(b.work, fmt.Sprintf("out-%d-%d.txt", n, i)), "content": "x\n"})})
			}
			return bs
		}},
		{"mix: 4 reads, 2 greps, a write, 2 bash, an edit", func(n int) []tool.Block {
			f := filepath.Join(b.work, fmt.Sprintf("mix-%d.txt", n))
			os.WriteFile(f, []byte("alpha\n"), 0o644)
			id := func(s string) string { return fmt.Sprintf("m%d-%s", n, s) }
			return []tool.Block{
				{ID: id("r1"), Name: tool.ReadName, Input: raw(map[string]any{"file_path": f})},
				{ID: id("r2"), Name: tool.ReadName, Input: raw(map[string]any{"file_path": small})},
				{ID: id("g1"), Name: tool.GrepName, Input: raw(map[string]any{"pattern": "alpha", "path": b.work})},
				{ID: id("b1"), Name: tool.BashName, Input: raw(map[string]any{"command": "sleep 0.1"})},
				{ID: id("e1"), Name: tool.EditName, Input: raw(map[string]any{"file_path": f, "old_string": "alpha", "new_string": "beta"})},
				{ID: id("r3"), Name: tool.ReadName, Input: raw(map[string]any{"file_path": f})},
				{ID: id("g2"), Name: tool.GrepName, Input: raw(map[string]any{"pattern": "beta", "path": b.work, "output_mode": "count"})},
				{ID: id("w1"), Name: tool.WriteName, Input: raw(map[string]any{"file_path": f + ".new", "content": "new\n"})},
				{ID: id("b2"), Name: tool.BashName, Input: raw(map[string]any{"command": "wc -l " + f})},
				{ID: id("r4"), Name: tool.ReadName, Input: raw(map[string]any{"file_path": small})},
			}
		}},
	}
}

// durable runs blocks as a Turn workflow and waits for its result.
func (b *bench) durable(id string, in workflows.TurnInput) (workflows.TurnResult, time.Duration, error) {
	in.SessionID, in.Workdir = "bench", b.work
	start := time.Now()
	run, err := b.c.ExecuteWorkflow(b.ctx, client.StartWorkflowOptions{ID: id, TaskQueue: b.queue, EnableEagerStart: true}, contract.TurnWorkflowName, in)
	if err != nil {
		return workflows.TurnResult{}, 0, err
	}
	var res workflows.TurnResult
	err = run.Get(b.ctx, &res)
	return res, time.Since(start), err
}

// overhead: the same turns, durable and in-process, interleaved so that machine
// load affects both alike.
func (b *bench) overhead() error {
	for si, s := range b.shapes() {
		var dur, inproc []time.Duration
		for n := range b.runs {
			blocks := s.blocks(2 * n)
			_, d, err := b.durable(fmt.Sprintf("overhead-%d-%d", si, n), workflows.TurnInput{Blocks: blocks, CloseIntake: true})
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			t0 := time.Now()
			if _, err := b.exec.Run(b.ctx, s.blocks(2*n+1)); err != nil {
				return err
			}
			dur, inproc = append(dur, d), append(inproc, time.Since(t0))
		}
		ratio := float64(pct(dur, 50)) / float64(pct(inproc, 50))
		var perTool []time.Duration
		for i := range dur {
			perTool = append(perTool, (dur[i]-inproc[i])/10)
		}
		b.add(row{"1. overhead", s.name + ": wall time durable / in-process (p50)",
			fmt.Sprintf("%.2f (%s / %s)", ratio, ms(pct(dur, 50)), ms(pct(inproc, 50))), target(si == 0, "≤ 1.10", ratio <= 1.10)})
		b.add(row{"1. overhead", s.name + ": per-tool overhead p50 / p99",
			fmt.Sprintf("%s / %s", ms(pct(perTool, 50)), ms(pct(perTool, 99))), target(si == 0, "p50 ≤ 5 ms", pct(perTool, 50) <= 5*time.Millisecond)})
	}
	return nil
}

// streaming: time from a block's hand-over (the AddBlocks update) to its tool's start.
func (b *bench) streaming() error {
	run, err := b.c.ExecuteWorkflow(b.ctx, client.StartWorkflowOptions{ID: "streaming", TaskQueue: b.queue},
		contract.TurnWorkflowName, workflows.TurnInput{SessionID: "bench", Workdir: b.work})
	if err != nil {
		return err
	}
	small := filepath.Join(b.work, "small.txt")
	var lat []time.Duration
	for i := range 60 {
		id := fmt.Sprintf("s-%d", i)
		started := b.rec.expect(id)
		t0 := time.Now()
		_, err := b.c.UpdateWorkflow(b.ctx, client.UpdateWorkflowOptions{WorkflowID: run.GetID(), UpdateName: contract.AddBlocksUpdate,
			Args: []any{[]tool.Block{{ID: id, Name: tool.ReadName, Input: raw(map[string]any{"file_path": small})}}}, WaitForStage: client.WorkflowUpdateStageAccepted})
		if err != nil {
			return err
		}
		lat = append(lat, (<-started).Sub(t0))
	}
	h, err := b.c.UpdateWorkflow(b.ctx, client.UpdateWorkflowOptions{WorkflowID: run.GetID(), UpdateName: contract.CloseIntakeUpdate, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = h.Get(b.ctx, nil)
	}
	if err != nil {
		return err
	}
	if err := run.Get(b.ctx, nil); err != nil {
		return err
	}
	b.add(row{"2. streaming", "block arrival → tool start, p50 / p99 (60 blocks)",
		fmt.Sprintf("%s / %s", ms(pct(lat, 50)), ms(pct(lat, 99))), target(true, "p50 ≤ 10 ms", pct(lat, 50) <= 10*time.Millisecond)})
	return nil
}

// throughput: 50 concurrent turns of 10 quick tools on one worker.
func (b *bench) throughput() error {
	small := filepath.Join(b.work, "small.txt")
	const turns, tools = 50, 10
	var idlePerSec time.Duration
	for round := range 2 { // the first round warms caches
		if round == 1 {
			idlePerSec = idleBurn()
		}
		var wg sync.WaitGroup
		errs := make(chan error, turns)
		cpu0, start := cpuTime(), time.Now()
		for t := range turns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var bs []tool.Block
				for i := range tools {
					bs = append(bs, tool.Block{ID: fmt.Sprintf("t%d-%d-%d", round, t, i), Name: tool.ReadName, Input: raw(map[string]any{"file_path": small})})
				}
				if _, _, err := b.durable(fmt.Sprintf("throughput-%d-%d", round, t), workflows.TurnInput{Blocks: bs, CloseIntake: true}); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			return err
		}
		if round == 1 {
			wall := time.Since(start)
			rate := float64(turns*tools) / wall.Seconds()
			// The CPU the whole process spends per call bounds the rate: with every
			// core busy, no more than cores / (CPU per call) calls a second.
			perCall := (cpuTime() - cpu0 - time.Duration(wall.Seconds()*float64(idlePerSec))) / (turns * tools)
			b.add(row{"3. throughput", "tool calls/s, 50 concurrent turns × 10 Reads, one worker",
				fmt.Sprintf("%.0f (CPU %s per call, idle background %s/s subtracted: at most %.0f/s on %d cores)",
					rate, ms(perCall), ms(idlePerSec), ceiling(perCall, runtime.NumCPU()), runtime.NumCPU()),
				target(true, "≥ 1,000", rate >= 1000)})
		}
	}
	return nil
}

// ceiling is the calls per second that cores can sustain at perCall CPU each.
func ceiling(perCall time.Duration, cores int) float64 {
	if perCall <= 0 {
		return 0
	}
	return float64(cores) * float64(time.Second) / float64(perCall)
}

func pct(ds []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
