// Package modelinfo knows what toolpipe needs of each Claude model: its context
// window in tokens and its list prices, for the session's compaction threshold and
// its cost estimate. Unknown models get the defaults (a 200,000-token window and
// Sonnet's prices); both can be set per session (`context-window`, `--price`).
package modelinfo

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultContextWindow is the window of current Claude models, in tokens.
const DefaultContextWindow = 200_000

// Price is a model's list price in US dollars per million tokens. Cache writes
// (5-minute) cost 1.25 times the input price and cache reads 0.1 times, as Anthropic
// bills them; CacheWrite and CacheRead hold those figures.
type Price struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheWrite float64 `json:"cache_write"`
	CacheRead  float64 `json:"cache_read"`
}

// PriceOf makes a Price from input and output prices with the standard cache rates.
func PriceOf(input, output float64) Price {
	return Price{Input: input, Output: output, CacheWrite: input * 1.25, CacheRead: input * 0.1}
}

// Model is one row of the table.
type Model struct {
	// Prefix matches a model id and its dated or aliased forms
	// (claude-sonnet-4-5 matches claude-sonnet-4-5-20250929).
	Prefix        string
	ContextWindow int
	Price         Price
}

// Models is the table, most specific prefixes first. Prices are Anthropic's list
// prices at the time of writing; override them with --price when they change.
var Models = []Model{
	// Claude Code 2.1.328's default model (its initialize answer and result's
	// modelUsage: a 1,000,000-token window, $4/$20).
	{"claude-opus-5-5", 1_000_000, PriceOf(4, 20)},
	{"claude-opus-4-5", DefaultContextWindow, PriceOf(5, 25)},
	{"claude-opus-4-1", DefaultContextWindow, PriceOf(15, 75)},
	{"claude-opus-4", DefaultContextWindow, PriceOf(15, 75)},
	{"claude-sonnet-4-5", DefaultContextWindow, PriceOf(3, 15)},
	{"claude-sonnet-4", DefaultContextWindow, PriceOf(3, 15)},
	{"claude-3-7-sonnet", DefaultContextWindow, PriceOf(3, 15)},
	{"claude-haiku-4-5", DefaultContextWindow, PriceOf(1, 5)},
	{"claude-3-5-haiku", DefaultContextWindow, PriceOf(0.8, 4)},
}

// Lookup returns the model's row; ok is false for an unknown model, which gets the
// defaults.
func Lookup(model string) (Model, bool) {
	for _, m := range Models {
		if strings.HasPrefix(model, m.Prefix) {
			return m, true
		}
	}
	return Model{Prefix: model, ContextWindow: DefaultContextWindow, Price: PriceOf(3, 15)}, false
}

// ParsePrice reads "INPUT,OUTPUT" dollars per million tokens (cache rates derived)
// or "INPUT,OUTPUT,CACHE_WRITE,CACHE_READ".
func ParsePrice(s string) (Price, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 && len(parts) != 4 {
		return Price{}, fmt.Errorf("price %q: want INPUT,OUTPUT or INPUT,OUTPUT,CACHE_WRITE,CACHE_READ in dollars per million tokens (such as 3,15)", s)
	}
	v := make([]float64, len(parts))
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || f < 0 {
			return Price{}, fmt.Errorf("price %q: %q is not a non-negative number of dollars", s, p)
		}
		v[i] = f
	}
	if len(v) == 2 {
		return PriceOf(v[0], v[1]), nil
	}
	return Price{Input: v[0], Output: v[1], CacheWrite: v[2], CacheRead: v[3]}, nil
}

// Cost is what tokens cost at p, in dollars.
func (p Price) Cost(input, output, cacheWrite, cacheRead int64) float64 {
	return (float64(input)*p.Input + float64(output)*p.Output +
		float64(cacheWrite)*p.CacheWrite + float64(cacheRead)*p.CacheRead) / 1e6
}
