package workflows_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// Prompt caching: every request carries at most four cache_control breakpoints, and
// from the third call on the cache reads are at least 80% of the input tokens; the
// session's totals and cost are the sums of what the API reported per call.
func TestSessionPromptCaching(t *testing.T) {
	var rs []fakeanthropic.Response
	for i := 0; i < 6; i++ {
		rs = append(rs, fakeanthropic.Response{Content: []wire.Block{
			use(fmt.Sprintf("c%d", i), "Bash", map[string]any{"command": fmt.Sprintf("seq %d %d", i*1000, i*1000+40)}),
		}})
	}
	rs = append(rs, fakeanthropic.Response{Content: []wire.Block{text("done")}})
	h := newAgentHarness(t, rs...)
	res := h.result(h.start(workflows.SessionInput{Prompt: "count", Options: fastOptions()}))
	reqs := h.fake.Requests()
	if len(reqs) != 7 || res.StopReason != "end_turn" {
		t.Fatalf("%d requests, result %+v", len(reqs), res)
	}
	var sum conversation.Usage
	for i, r := range reqs {
		if n := strings.Count(string(r.Body), `"cache_control"`); n == 0 || n > 4 {
			t.Errorf("request %d has %d cache_control breakpoints", i, n)
		}
		u := r.Usage
		if i >= 2 && float64(u.CacheReadInputTokens) < 0.8*float64(u.TotalInput()) {
			t.Errorf("request %d read %d of %d input tokens from the cache", i+1, u.CacheReadInputTokens, u.TotalInput())
		}
		sum = sum.Add(conversation.Usage{InputTokens: int64(u.InputTokens), OutputTokens: int64(u.OutputTokens),
			CacheCreationInputTokens: int64(u.CacheCreationInputTokens), CacheReadInputTokens: int64(u.CacheReadInputTokens)})
	}
	if res.Usage != sum {
		t.Fatalf("session usage %+v, the API reported %+v", res.Usage, sum)
	}
	want := (3*float64(sum.InputTokens) + 15*float64(sum.OutputTokens) + 3.75*float64(sum.CacheCreationInputTokens) + 0.3*float64(sum.CacheReadInputTokens)) / 1e6
	if d := res.Cost - want; d > 1e-9 || d < -1e-9 {
		t.Fatalf("cost %v, want %v", res.Cost, want)
	}
}

// --max-budget-usd: the prompt ends cleanly after the call that reached the budget,
// with the reason, though the model asked for more tools.
func TestSessionMaxBudget(t *testing.T) {
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{use("b1", "Bash", map[string]any{"command": "echo one"})}},
		fakeanthropic.Response{Content: []wire.Block{use("b2", "Bash", map[string]any{"command": "echo two"})}},
		fakeanthropic.Response{Content: []wire.Block{text("never")}},
	)
	opts := fastOptions()
	opts.MaxBudgetUSD = 0.00001 // less than the first call costs
	res := h.result(h.start(workflows.SessionInput{Prompt: "spend", Options: opts}))
	if res.StopReason != workflows.StopMaxBudget || res.Turns != 1 || res.Cost < opts.MaxBudgetUSD {
		t.Fatalf("result %+v", res)
	}
	if n := len(h.fake.Requests()); n != 1 {
		t.Fatalf("%d requests after the budget was reached", n)
	}
}
