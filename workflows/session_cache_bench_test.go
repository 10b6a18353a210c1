package workflows_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/agentprompt"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/workflows"
)

// TestSessionCacheBenchmark measures input tokens billed per turn over a 100-turn
// session (a Read of TOOLPIPE_BENCH_CACHE_KB KB per turn, default 1, and the
// default system prompt) with prompt caching, and
// what the same requests would bill without it, for BENCHMARKS.md. Run it with
// TOOLPIPE_BENCH_CACHE=1; it checks that from the third call on the cache reads are
// at least 80% of the input tokens.
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
	line := strings.Repeat("y", 79) + "\n"
	for i := 0; i < turns; i++ {
		path := filepath.Join(h.work, fmt.Sprintf("g%03d.txt", i))
		if err := os.WriteFile(path, []byte(strings.Repeat(line, 13*kb)), 0o644); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, fakeanthropic.Response{Content: []conversation.Block{use(fmt.Sprintf("g%03d", i), "Read", map[string]any{"file_path": path})}})
	}
	rs = append(rs, fakeanthropic.Response{Content: []conversation.Block{text("done")}})
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: rs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Close)
	h.fake = fake
	h.startWorker()
	opts := fastOptions()
	opts.MaxTurns = turns + 1
	h.result(h.start(workflows.SessionInput{Prompt: "read them all", Options: opts,
		Model: workflows.ModelOptions{System: agentprompt.Default}}))
	var cached, plain float64
	fmt.Printf("call\tinput\tcache_write\tcache_read\tread_share\tbilled_cached\tbilled_uncached\n")
	for i, r := range fake.Requests() {
		u := r.Usage
		billed := float64(u.InputTokens) + 1.25*float64(u.CacheCreationInputTokens) + 0.1*float64(u.CacheReadInputTokens)
		share := float64(u.CacheReadInputTokens) / float64(u.TotalInput())
		cached += billed
		plain += float64(u.TotalInput())
		if i < 5 || (i+1)%10 == 0 {
			fmt.Printf("%d\t%d\t%d\t%d\t%.1f%%\t%.0f\t%d\n", i+1, u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens, 100*share, billed, u.TotalInput())
		}
		if i >= 2 && share < 0.8 {
			t.Errorf("call %d read %.1f%% of its input from the cache", i+1, 100*share)
		}
	}
	fmt.Printf("total input-token equivalents billed: %.0f with caching, %.0f without (%.1fx)\n", cached, plain, plain/cached)
}
