package config

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/toolpipe/toolpipe/modelinfo"
)

// KeyPrices is the config file's price table: per model, US dollars per million
// tokens, overriding modelinfo's list prices for the agent's cost estimate:
//
//	prices:
//	  claude-sonnet-4-5: {input: 3, output: 15, cache_write: 3.75, cache_read: 0.3}
//	  my-proxy-model: {input: 1, output: 4}   # cache rates derived: 1.25x and 0.1x input
//
// A model name matches the model ids it begins (claude-sonnet-4-5 covers
// claude-sonnet-4-5-20250929); the longest match wins. `starter agent --price` wins
// over the table.
const KeyPrices = "prices"

// Price fields of one model in the table.
const (
	priceInput      = "input"
	priceOutput     = "output"
	priceCacheWrite = "cache_write"
	priceCacheRead  = "cache_read"
)

var priceFields = []string{priceInput, priceOutput, priceCacheWrite, priceCacheRead}

// Prices is the configured price table, by model name (lower case, as the file's keys
// are read).
type Prices map[string]modelinfo.Price

// Lookup returns the price configured for model: the entry whose name is the longest
// prefix of the model id (case-insensitive).
func (p Prices) Lookup(model string) (modelinfo.Price, bool) {
	model = strings.ToLower(model)
	best, found := "", false
	for name := range p {
		if strings.HasPrefix(model, name) && (!found || len(name) > len(best)) {
			best, found = name, true
		}
	}
	return p[best], found
}

// readPrices reads and checks the price table: a map of model names to maps of the
// four price fields, input and output required, every value a non-negative number.
// Each problem names the key, the value and what is allowed.
func readPrices(raw any) (Prices, []error) {
	if raw == nil {
		return nil, nil
	}
	table, ok := raw.(map[string]any)
	if !ok {
		return nil, []error{fmt.Errorf("%s %s is not a map of model names to prices; in the config file write, e.g., "+
			"prices: {claude-sonnet-4-5: {input: 3, output: 15}}", KeyPrices, quote(raw))}
	}
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	sort.Strings(names)
	out, errs := Prices{}, []error(nil)
	for _, name := range names {
		if strings.TrimSpace(name) == "" {
			errs = append(errs, fmt.Errorf("%s has an entry with an empty model name, which would price every model; name the model (a prefix such as claude-sonnet-4 is enough)", KeyPrices))
			continue
		}
		p, err := readPrice(name, table[name])
		if err != nil {
			errs = append(errs, err...)
			continue
		}
		out[strings.ToLower(name)] = p
	}
	return out, errs
}

// readPrice reads one model's entry; cache prices left out are derived from the
// input price as Anthropic bills them (modelinfo.PriceOf).
func readPrice(name string, raw any) (modelinfo.Price, []error) {
	key := KeyPrices + "." + name
	fields, ok := raw.(map[string]any)
	if !ok {
		return modelinfo.Price{}, []error{fmt.Errorf("%s %s is not a map of %s to US dollars per million tokens, e.g. {input: 3, output: 15}",
			key, quote(raw), strings.Join(priceFields, ", "))}
	}
	var errs []error
	vals := map[string]float64{}
	for f, v := range fields {
		f = strings.ToLower(f)
		if !slices.Contains(priceFields, f) {
			errs = append(errs, fmt.Errorf("%s.%s: unknown field; the fields are %s (US dollars per million tokens)", key, f, strings.Join(priceFields, ", ")))
			continue
		}
		n, ok := dollars(v)
		if !ok {
			errs = append(errs, fmt.Errorf("%s.%s %s is not a non-negative number of US dollars per million tokens", key, f, quote(v)))
			continue
		}
		vals[f] = n
	}
	for _, f := range []string{priceInput, priceOutput} {
		if _, ok := vals[f]; !ok {
			errs = append(errs, fmt.Errorf("%s: %s is missing; input and output are required (cache_write and cache_read default to 1.25 and 0.1 times input)", key, f))
		}
	}
	if len(errs) > 0 {
		sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
		return modelinfo.Price{}, errs
	}
	p := modelinfo.PriceOf(vals[priceInput], vals[priceOutput])
	if v, ok := vals[priceCacheWrite]; ok {
		p.CacheWrite = v
	}
	if v, ok := vals[priceCacheRead]; ok {
		p.CacheRead = v
	}
	return p, nil
}

// dollars reads a price: a number, or a string holding one; never a boolean, a list
// or a negative, infinite or NaN value.
func dollars(v any) (float64, bool) {
	var f float64
	switch x := v.(type) {
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case uint64:
		f = float64(x)
	case float64:
		f = x
	case string:
		n, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return 0, false
		}
		f = n
	default:
		return 0, false
	}
	return f, f >= 0 && !math.IsInf(f, 0) && !math.IsNaN(f)
}
