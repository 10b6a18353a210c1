package workflows_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/agentprompt"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// TestSessionCacheBenchmark measures input tokens billed per call over a 100-turn
// session (a Read of TOOLPIPE_BENCH_CACHE_KB KB per turn, default 1, toolpipe's
// default system prompt and tools, the default 200,000-token window, so that bigger
// Reads compact on the way) with prompt caching, and what the same requests would
// bill without it, for BENCHMARKS.md. Run it with TOOLPIPE_BENCH_CACHE=1
// (TOOLPIPE_BENCH_CACHE_ALL=1 prints every call). It checks what correct breakpoints
// guarantee: every call reads all that the call before it sent from the cache (a
// call after a compaction: the tools and system prompt), so only what is new since
// is written; and, for Reads of up to 4 KB, that from the third call on the cache
// reads are at least 80% of the input tokens. With bigger Reads that share is
// arithmetic: call N reads at most 1 - new/total of its input.
func TestSessionCacheBenchmark(t *testing.T) {
	if os.Getenv("TOOLPIPE_BENCH_CACHE") != "1" {
		t.Skip("set TOOLPIPE_BENCH_CACHE=1 to run the 100-turn caching benchmark")
	}
	const turns = 100
	kb := 1
	if v := os.Getenv("TOOLPIPE_BENCH_CACHE_KB"); v != "" {
		fmt.Sscan(v, &kb)
	}
	h := newIdleAgentHarness(t)
	var rs []fakeanthropic.Response
	for i := 0; i < 20; i++ {
		rs = append(rs, fakeanthropic.Response{When: nearlyFull, Content: []wire.Block{
			text(fmt.Sprintf("Summary %d: the user wants every g*.txt file read in order; all read so far hold lines of y.", i))}})
	}
	line := strings.Repeat("y", 79) + "\n"
	for i := 0; i < turns; i++ {
		path := filepath.Join(h.work, fmt.Sprintf("g%03d.txt", i))
		if err := os.WriteFile(path, []byte(strings.Repeat(line, 13*kb)), 0o644); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, fakeanthropic.Response{Content: []wire.Block{use(fmt.Sprintf("g%03d", i), "Read", map[string]any{"file_path": path})}})
	}
	rs = append(rs, fakeanthropic.Response{Content: []wire.Block{text("done")}})
	fake := h.runScript(fakeanthropic.Script{Responses: rs})
	opts := fastOptions()
	opts.MaxTurns = turns + 1
	res := h.result(h.start(workflows.SessionInput{Prompt: "read them all", Options: opts,
		Model: workflows.ModelOptions{System: agentprompt.Default}}))
	if res.Text != "done" || res.Turns != turns+1 {
		t.Fatalf("the session ended early: %+v", res)
	}
	reqs := fake.Requests()
	// The first call is the tools, the system prompt and a three-word prompt: a call
	// after a compaction reads the first two from the cache, 99% of it.
	fixed := reqs[0].Usage.TotalInput() * 99 / 100
	all := os.Getenv("TOOLPIPE_BENCH_CACHE_ALL") == "1"
	var cached, plain float64
	fmt.Printf("call\tkind\tinput\tcache_write\tcache_read\tread_share\tbilled_cached\tbilled_uncached\n")
	for i, r := range reqs {
		u := r.Usage
		billed := float64(u.InputTokens) + 1.25*float64(u.CacheCreationInputTokens) + 0.1*float64(u.CacheReadInputTokens)
		share := float64(u.CacheReadInputTokens) / float64(u.TotalInput())
		cached += billed
		plain += float64(u.TotalInput())
		kind := "turn"
		if strings.Contains(lastUserText(r), nearlyFull) {
			kind = "summary"
		}
		afterSummary := i > 0 && strings.Contains(lastUserText(reqs[i-1]), nearlyFull)
		if afterSummary {
			kind = "after summary"
		}
		if all || i < 6 || (i+1)%10 == 0 || kind != "turn" {
			fmt.Printf("%d\t%s\t%d\t%d\t%d\t%.1f%%\t%.0f\t%d\n", i+1, kind, u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens, 100*share, billed, u.TotalInput())
		}
		switch {
		case i == 0:
		case afterSummary:
			if u.CacheReadInputTokens < fixed {
				t.Errorf("call %d (after a compaction) read %d tokens from the cache, less than the tools and system prompt (%d)", i+1, u.CacheReadInputTokens, fixed)
			}
		case u.CacheReadInputTokens < reqs[i-1].Usage.TotalInput():
			t.Errorf("call %d read %d tokens from the cache, less than call %d sent (%d)", i+1, u.CacheReadInputTokens, i, reqs[i-1].Usage.TotalInput())
		}
		if kb <= 4 && i >= 2 && !afterSummary && share < 0.8 {
			t.Errorf("call %d read %.1f%% of its input from the cache", i+1, 100*share)
		}
	}
	fmt.Printf("calls: %d (%d compactions); total input-token equivalents billed: %.0f with caching, %.0f without (%.1fx)\n",
		len(reqs), len(reqs)-turns-1, cached, plain, plain/cached)
}
