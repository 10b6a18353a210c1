package parity

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// parityCase is one assistant message run by both: its tool_use blocks, the files it
// needs (relative to a directory of its own, $D in inputs), and, for a deliberate
// difference, why toolpipe answers otherwise.
type parityCase struct {
	name   string
	files  map[string]string
	blocks []caseBlock
	// differs explains a deliberate difference; the blocks in want are then
	// checked by it instead of against Claude Code's text (a check returns what is
	// wrong, or "").
	differs string
	want    map[int]func(result) string
}

type caseBlock struct {
	name  string
	input string // JSON; $D is the case's directory
}

func (c parityCase) id(i int) string { return "toolu_" + c.name + "_" + string(rune('a'+i)) }

// script returns the case's tool_use blocks for a run whose working directory is root.
func (c parityCase) script(root string) []scriptBlock {
	dir := filepath.Join(root, c.name)
	var out []scriptBlock
	for i, b := range c.blocks {
		in := strings.ReplaceAll(b.input, "$D", dir)
		out = append(out, scriptBlock{ID: c.id(i), Name: b.name, Input: json.RawMessage(in)})
	}
	return out
}

// setup writes the case's files under root, in name order, each a minute newer than
// the one before: Glob sorts by modification time, so both runs must see the same.
func (c parityCase) setup(t *testing.T, root string) {
	dir := filepath.Join(root, c.name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	names := slices.Sorted(maps.Keys(c.files))
	for i, name := range names {
		content := c.files[name]
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
}

func blk(name, input string) caseBlock { return caseBlock{name: name, input: input} }
