package main

import (
	"testing"

	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/modelinfo"
)

// The session's price comes from --price, else the config file's table (matched as a
// prefix of the model id), else modelinfo's table (nil).
func TestModelPricePrecedence(t *testing.T) {
	cfg := config.Config{Prices: config.Prices{"claude-sonnet-4-5": {Input: 2, Output: 10, CacheWrite: 2.5, CacheRead: 0.2}}}
	for _, c := range []struct {
		name string
		f    agentFlags
		want *modelinfo.Price
	}{
		{"flag wins", agentFlags{model: "claude-sonnet-4-5", price: "1,5"}, &modelinfo.Price{Input: 1, Output: 5, CacheWrite: 1.25, CacheRead: 0.1}},
		{"config table", agentFlags{model: "claude-sonnet-4-5-20250929"}, &modelinfo.Price{Input: 2, Output: 10, CacheWrite: 2.5, CacheRead: 0.2}},
		{"list price", agentFlags{model: "claude-opus-4-5"}, nil},
	} {
		got := modelPrice(c.f, cfg)
		if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
