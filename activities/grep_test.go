package activities

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/internal/testfs"
	"github.com/toolpipe/toolpipe/tool"
)

// Every field of Claude Code's GrepInput is accepted with its meaning: -n on by
// default, context (or -C) winning over -A/-B, head_limit 250 by default and 0
// for all, offset, -o.
func TestGrepInputFields(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		b.WriteString("line TODO\n")
	}
	testfs.Write(t, filepath.Join(dir, "big.txt"), b.String())
	testfs.Write(t, filepath.Join(dir, "ctx.txt"), "a\nTODO x\nb\nc\n")
	def := builtin(t, tool.GrepName)
	cases := []struct {
		in   map[string]any
		want string
	}{
		{map[string]any{"pattern": "TODO x", "path": "ctx.txt", "output_mode": "content", "context": 1, "-A": 0},
			"1-a\n2:TODO x\n3-b"},
		{map[string]any{"pattern": "TODO x", "path": "ctx.txt", "output_mode": "content", "-C": 1, "-B": 0, "-n": false},
			"a\nTODO x\nb"},
		{map[string]any{"pattern": "TODO x", "path": "ctx.txt", "output_mode": "content", "-A": 2},
			"2:TODO x\n3-b\n4-c"},
		{map[string]any{"pattern": "T.DO", "path": "ctx.txt", "output_mode": "content", "-o": true},
			"2:TODO"},
		{map[string]any{"pattern": "TODO", "path": "big.txt", "output_mode": "content", "offset": 298},
			"299:line TODO\n300:line TODO\n\n[Showing results with pagination = offset: 298]"},
	}
	for _, c := range cases {
		if err := def.ValidateInput(raw(t, c.in)); err != nil {
			t.Errorf("%v rejected: %v", c.in, err)
			continue
		}
		out, err := a.Grep(context.Background(), call(t, tool.GrepName, dir, c.in))
		if err != nil || out.IsError || out.Content != c.want {
			t.Errorf("%v: %q, %v\nwant %q", c.in, out.Content, err, c.want)
		}
	}
	out, _ := a.Grep(context.Background(), call(t, tool.GrepName, dir, map[string]any{"pattern": "TODO", "path": "big.txt", "output_mode": "content"}))
	lines := strings.Split(out.Content, "\n")
	if len(lines) != 252 || lines[251] != "[Showing results with pagination = limit: 250]" {
		t.Errorf("default head_limit: %d lines, last %q", len(lines), lines[len(lines)-1])
	}
	out, _ = a.Grep(context.Background(), call(t, tool.GrepName, dir, map[string]any{"pattern": "TODO", "path": "big.txt", "output_mode": "content", "head_limit": 0}))
	if n := strings.Count(out.Content, "\n") + 1; n != 300 {
		t.Errorf("head_limit 0: %d lines, want all 300", n)
	}
}

// Without rg on the worker's PATH, Grep answers with the Go engine, and the
// same text as ripgrep gives.
func TestGrepWithoutRipgrep(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	testfs.Write(t, filepath.Join(dir, ".git", "HEAD"), "ref: x\n")
	testfs.Write(t, filepath.Join(dir, ".gitignore"), "build/\n*.log\n")
	testfs.Write(t, filepath.Join(dir, "main.go"), "package main\n\n// TODO: greet\nfunc main() {}\n")
	testfs.Write(t, filepath.Join(dir, "pkg", "util.go"), "package pkg\n// TODO one\n// todo two\n")
	testfs.Write(t, filepath.Join(dir, "build", "out.go"), "// TODO built\n")
	testfs.Write(t, filepath.Join(dir, "debug.log"), "TODO log\n")
	for i, p := range []string{"main.go", "pkg/util.go"} {
		ts := time.Unix(1_700_000_000+int64(i), 0)
		chtimes(t, filepath.Join(dir, p), ts)
	}
	inputs := []map[string]any{
		{"pattern": "TODO"},
		{"pattern": "todo", "-i": true, "output_mode": "content", "-C": 1},
		{"pattern": "TODO", "output_mode": "count", "type": "go"},
		{"pattern": "TODO", "glob": "*.go", "output_mode": "content", "head_limit": 1},
	}
	var withRg []string
	if _, err := exec.LookPath("rg"); err == nil {
		for _, in := range inputs {
			out, _ := a.Grep(context.Background(), call(t, tool.GrepName, dir, in))
			withRg = append(withRg, out.Content)
		}
	}
	t.Setenv("PATH", t.TempDir()) // no rg
	want := []string{
		"Found 2 files\npkg/util.go\nmain.go",
		"main.go-2-\nmain.go:3:// TODO: greet\nmain.go-4-func main() {}\n--\npkg/util.go-1-package pkg\npkg/util.go:2:// TODO one\npkg/util.go:3:// todo two",
		"main.go:1\npkg/util.go:1\n\nFound 2 total occurrences across 2 files.",
		"main.go:3:// TODO: greet\n\n[Showing results with pagination = limit: 1]",
	}
	for i, in := range inputs {
		out, err := a.Grep(context.Background(), call(t, tool.GrepName, dir, in))
		if err != nil || out.IsError || out.Content != want[i] {
			t.Errorf("Go engine, %v: %q, %v\nwant %q", in, out.Content, err, want[i])
		}
		if withRg != nil && withRg[i] != out.Content {
			t.Errorf("%v: rg gave %q, the Go engine %q", in, withRg[i], out.Content)
		}
	}
}

func raw(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func chtimes(t *testing.T, path string, ts time.Time) {
	t.Helper()
	if err := os.Chtimes(path, ts, ts); err != nil {
		t.Fatal(err)
	}
}
