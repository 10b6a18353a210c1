package reliability

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// TestConcurrentTurnsLoad runs waves of concurrent turns of 10 tools each (Bash
// read-only and with side effects, Read, Glob) against one worker process. Every
// result is delivered exactly once, in each turn's arrival order; every side effect
// happened once; the worker's memory stays bounded: its peak RSS under a generous
// ceiling, and a second wave adds no more than a margin to the first (no leak per
// turn). Fast: 2 waves of 100 turns (about 40 s on 2 cores);
// TOOLPIPE_RELIABILITY_FULL=1: 5 waves.
func TestConcurrentTurnsLoad(t *testing.T) {
	const turns = 100
	waves := 2
	if full() {
		waves = 5
	}
	const (
		peakCeiling = 1 << 30   // 1 GiB: the worker idles at about 110 MiB, peaks near 130
		leakMargin  = 128 << 20 // what a second wave may add
	)
	e := newEnv(t)
	worker := e.startWorkerProcess()
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, "f.txt"), []byte("hello\n"), 0o644)
	os.Mkdir(filepath.Join(work, "lines"), 0o755)

	wave := func(w int) {
		begin := time.Now()
		var wg sync.WaitGroup
		results := make([]workflows.TurnResult, turns)
		errs := make([]error, turns)
		blocks := make([][]tool.Block, turns)
		for i := range turns {
			for j := range 10 {
				id := fmt.Sprintf("w%d-t%d-c%d", w, i, j)
				var b tool.Block
				switch j % 5 {
				case 0, 1:
					b = bash(id, "echo "+id)
				case 2:
					b = bash(id, fmt.Sprintf("echo %s >> lines/%s", id, id))
				case 3:
					b = tool.Block{ID: id, Name: tool.ReadName, Input: raw(map[string]any{"file_path": filepath.Join(work, "f.txt")})}
				case 4:
					b = tool.Block{ID: id, Name: tool.GlobName, Input: raw(map[string]any{"pattern": "*.txt"})}
				}
				blocks[i] = append(blocks[i], b)
			}
			run := e.start(fmt.Sprintf("load-%d-%d", w, i), workflows.TurnInput{Workdir: work, Blocks: blocks[i], CloseIntake: true})
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = run.Get(testenv.Context(t), &results[i])
			}()
		}
		wg.Wait()
		t.Logf("wave %d: %d turns of 10 tools in %v", w, turns, time.Since(begin).Round(time.Millisecond))
		seen := map[string]int{}
		for i := range turns {
			if errs[i] != nil {
				t.Fatalf("turn %d: %v", i, errs[i])
			}
			if len(results[i].Results) != len(blocks[i]) {
				t.Fatalf("turn %d: %d results for %d calls", i, len(results[i].Results), len(blocks[i]))
			}
			for j, r := range results[i].Results {
				seen[r.ToolUseID]++
				b := blocks[i][j]
				if r.ToolUseID != b.ID || r.IsError {
					t.Fatalf("turn %d result %d: %+v, want %s", i, j, r, b.ID)
				}
				if b.Name == tool.BashName && j%5 < 2 && r.Content != b.ID {
					t.Fatalf("%s: %q", b.ID, r.Content)
				}
				if j%5 == 2 {
					if got, _ := os.ReadFile(filepath.Join(work, "lines", b.ID)); string(got) != b.ID+"\n" {
						t.Fatalf("%s ran %d times", b.ID, strings.Count(string(got), "\n"))
					}
				}
			}
		}
		for id, n := range seen {
			if n != 1 {
				t.Fatalf("%s delivered %d times", id, n)
			}
		}
	}
	idle := rss(t, worker)
	wave(1)
	after1 := rss(t, worker)
	last := after1
	for w := 2; w <= waves; w++ {
		wave(w)
		last = rss(t, worker)
	}
	peak := worker.peakRSS(t)
	t.Logf("worker RSS: idle %d MiB, after wave 1 %d MiB, after wave %d %d MiB, peak %d MiB", idle>>20, after1>>20, waves, last>>20, peak>>20)
	if peak > peakCeiling {
		t.Errorf("worker peak RSS %d MiB over %d MiB", peak>>20, peakCeiling>>20)
	}
	if last > after1+leakMargin {
		t.Errorf("worker RSS grew from %d MiB to %d MiB over %d more identical waves", after1>>20, last>>20, waves-1)
	}
}

// rss is the worker process's current resident set in bytes.
func rss(t *testing.T, p *workerProc) int64 {
	return p.status(t, "VmRSS:")
}
