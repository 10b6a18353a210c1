package parity

import (
	"encoding/json"
	"errors"
	"io/fs"
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
	name  string
	files map[string]string
	// fixtures are files copied from testdata: name in the case's directory →
	// path under testdata (files whose bytes matter: encodings, notebooks).
	fixtures map[string]string
	blocks   []caseBlock
	// differs explains a deliberate difference; the blocks in want are then
	// checked by it instead of against Claude Code's text (a check returns what is
	// wrong, or "").
	differs string
	want    map[int]func(result) string
	// keepTree skips the comparison of the files left on disk for a case whose
	// tool_results are compared but whose files differ by run (none yet but
	// deliberate differences, whose files are never compared).
	keepTree bool
}

type caseBlock struct {
	name  string
	input string // JSON; $D is the case's directory, $W the working directory
}

func (c parityCase) id(i int) string { return "toolu_" + c.name + "_" + string(rune('a'+i)) }

// script returns the case's tool_use blocks for a run whose working directory is root.
func (c parityCase) script(root string) []scriptBlock {
	dir := filepath.Join(root, c.name)
	var out []scriptBlock
	for i, b := range c.blocks {
		in := strings.ReplaceAll(strings.ReplaceAll(b.input, "$D", dir), "$W", root)
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
	all := maps.Clone(c.files)
	if all == nil {
		all = map[string]string{}
	}
	for name, src := range c.fixtures {
		b, err := os.ReadFile(filepath.Join("testdata", src))
		if err != nil {
			t.Fatal(err)
		}
		all[name] = string(b)
	}
	names := slices.Sorted(maps.Keys(all))
	for i, name := range names {
		content := all[name]
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

// tree is what a case left on disk: each file's path under the case's directory
// and its bytes (a directory is "/").
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case rel == ".":
		case d.IsDir():
			out[rel] = "/"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}
