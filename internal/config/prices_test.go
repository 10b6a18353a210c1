package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/testfs"
	"github.com/toolpipe/toolpipe/modelinfo"
)

// The config file's price table loads: cache prices given or derived, names matched
// as prefixes of model ids, the longest first.
func TestPricesLoad(t *testing.T) {
	file := filepath.Join(t.TempDir(), "toolpipe.yaml")
	testfs.Write(t, file, `prices:
  claude-sonnet-4-5: {input: 2.5, output: 12, cache_write: 3, cache_read: 0.25}
  claude-sonnet: {input: 1, output: "4"}
  my-proxy.model-v1.5: {input: 0, output: 0}
`)
	c, _, err := Load(flags("--state-dir", t.TempDir()), file)
	if err != nil {
		t.Fatal(err)
	}
	for model, want := range map[string]modelinfo.Price{
		"claude-sonnet-4-5-20250929": {Input: 2.5, Output: 12, CacheWrite: 3, CacheRead: 0.25},
		"claude-sonnet-4":            modelinfo.PriceOf(1, 4),
		"my-proxy.model-v1.5":        {},
	} {
		got, ok := c.Prices.Lookup(model)
		if !ok || got != want {
			t.Errorf("%s: %+v (found %v), want %+v", model, got, ok, want)
		}
	}
	if _, ok := c.Prices.Lookup("claude-opus-4-5"); ok {
		t.Error("claude-opus-4-5 has no entry but was found")
	}
}

// A bad price table is refused, each problem with its key, its value and what is
// allowed; nothing of it is used.
func TestBadPricesAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"not a map", "prices: 3\n", []string{"prices 3 is not a map of model names to prices"}},
		{"model not a map", "prices:\n  claude-x: 3\n", []string{"prices.claude-x 3 is not a map of input, output, cache_write, cache_read"}},
		{"unknown field", "prices:\n  claude-x: {inptu: 3, output: 15}\n", []string{"prices.claude-x.inptu: unknown field; the fields are input, output, cache_write, cache_read",
			"prices.claude-x: input is missing"}},
		{"negative", "prices:\n  claude-x: {input: -1, output: 15}\n", []string{"prices.claude-x.input -1 is not a non-negative number"}},
		{"not a number", "prices:\n  claude-x: {input: cheap, output: 15}\n", []string{`prices.claude-x.input "cheap" is not a non-negative number of US dollars per million tokens`}},
		{"boolean", "prices:\n  claude-x: {input: 1, output: true}\n", []string{"prices.claude-x.output true is not a non-negative number"}},
		{"output missing", "prices:\n  claude-x: {input: 1}\n", []string{"prices.claude-x: output is missing; input and output are required"}},
		{"empty model name", "prices:\n  \"\": {input: 1, output: 2}\n", []string{"an entry with an empty model name"}},
		{"two models", "prices:\n  a: {input: 1, output: x}\n  b: {input: y, output: 1}\n", []string{"prices.a.output", "prices.b.input"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "toolpipe.yaml")
			testfs.Write(t, file, tc.file)
			wantRefused(t, file, tc.want)
		})
	}
	t.Run("environment", func(t *testing.T) {
		t.Setenv("TOOLPIPE_PRICES", "3,15")
		_, _, err := Load(flags("--state-dir", t.TempDir()), "")
		if err == nil || !strings.Contains(err.Error(), `prices "3,15" is not a map`) {
			t.Fatalf("TOOLPIPE_PRICES=3,15: %v", err)
		}
	})
}
