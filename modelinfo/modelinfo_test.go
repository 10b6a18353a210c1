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

// The API's refusal names the window (issue 32 item 7): its figures are read however
// the message is wrapped.
func TestParseTooLong(t *testing.T) {
	for msg, want := range map[string]TooLong{
		"prompt is too long: 208310 tokens > 200000 maximum":                                    {208310, 200000},
		"model: 400 invalid_request_error: prompt is too long: 61234 tokens > 60000 maximum":    {61234, 60000},
		`proxy: {"message":"prompt is too long: 200000 tokens > 199999 maximum"} (request req)`: {200000, 199999},
	} {
		if got, ok := ParseTooLong(msg); !ok || got != want {
			t.Errorf("ParseTooLong(%q) = %+v, %v; want %+v", msg, got, ok, want)
		}
	}
	for _, msg := range []string{"", "prompt is too long", "model: 400 invalid_request_error: max_tokens: 9999999 > 64000", "prompt is too long: 5 tokens > 0 maximum"} {
		if got, ok := ParseTooLong(msg); ok {
			t.Errorf("ParseTooLong(%q) = %+v", msg, got)
		}
	}
}
