package modelinfo

import (
	"math"
	"testing"
)

func TestLookupAndCost(t *testing.T) {
	m, ok := Lookup("claude-sonnet-4-5-20250929")
	if !ok || m.Prefix != "claude-sonnet-4-5" || m.ContextWindow != 200_000 {
		t.Fatalf("%+v %v", m, ok)
	}
	// 1M plain input, 1M output, 1M cache writes, 1M cache reads at Sonnet's prices.
	if c := m.Price.Cost(1e6, 1e6, 1e6, 1e6); math.Abs(c-(3+15+3.75+0.3)) > 1e-9 {
		t.Fatalf("cost %v", c)
	}
	if _, ok := Lookup("some-other-model"); ok {
		t.Fatal("an unknown model was found")
	}
	if p, err := ParsePrice("1, 5"); err != nil || p != PriceOf(1, 5) {
		t.Fatalf("%+v %v", p, err)
	}
	for _, bad := range []string{"", "3", "a,b", "-1,2", "1,2,3"} {
		if _, err := ParsePrice(bad); err == nil {
			t.Errorf("ParsePrice(%q) passed", bad)
		}
	}
}
