package activities

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/internal/testfs"
	"github.com/toolpipe/toolpipe/tool"
)

func TestReadNumberedOffsetLimit(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	p := filepath.Join(dir, "f.txt")
	testfs.Write(t, p, "one\ntwo\nthree\nfour\n")
	out, _ := a.Read(context.Background(), call(t, tool.ReadName, dir, map[string]any{"file_path": p, "offset": 2, "limit": 2}))
	if out.IsError || out.Content != "2\ttwo\n3\tthree" {
		t.Fatalf("%q", out.Content)
	}
	if out.Modifier == nil || len(out.Modifier.ReadFiles) != 1 || out.Modifier.ReadFiles[0] != p {
		t.Fatalf("modifier %+v", out.Modifier)
	}
	// Long lines are kept whole, as in Claude Code 2.1.328 (the token limit bounds them).
	long := strings.Repeat("x", 30000)
	testfs.Write(t, p, long+"\n")
	out, _ = a.Read(context.Background(), call(t, tool.ReadName, dir, map[string]any{"file_path": p}))
	if out.Content != "1\t"+long+"\n2\t" {
		t.Fatalf("long line: %d chars", len(out.Content))
	}
	var many strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&many, "line %d\n", i)
	}
	testfs.Write(t, p, many.String())
	out, _ = a.Read(context.Background(), call(t, tool.ReadName, dir, map[string]any{"file_path": p}))
	// No default limit: Claude Code 2.1.328 reads every line (its size and token
	// limits bound a result).
	if n := strings.Count(out.Content, "\n"); n != 2500 || !strings.HasSuffix(out.Content, "\n2500\tline 2500\n2501\t") {
		t.Fatalf("no default limit: %d lines", n)
	}
}

func TestReadRefusesBinaryAndMissing(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	p := filepath.Join(dir, "b.bin")
	testfs.Write(t, p, "ELF\x00\x01\x02")
	if out, _ := a.Read(context.Background(), call(t, tool.ReadName, dir, map[string]any{"file_path": p})); !out.IsError || !strings.Contains(out.Content, "binary") {
		t.Fatalf("binary: %+v", out)
	}
	if out, _ := a.Read(context.Background(), call(t, tool.ReadName, dir, map[string]any{"file_path": p + ".nope"})); !out.IsError || !strings.Contains(out.Content, "does not exist") {
		t.Fatalf("missing: %+v", out)
	}
}

func TestWriteAndEditRequireRead(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	p := filepath.Join(dir, "sub", "f.go")
	ctx := context.Background()
	out, _ := a.Write(ctx, call(t, tool.WriteName, dir, map[string]any{"file_path": p, "content": "a a b\n"}))
	if out.IsError || !strings.Contains(out.Content, "created") {
		t.Fatalf("create: %+v", out)
	}
	// Overwriting or editing an existing file that was never read is refused.
	if out, _ := a.Write(ctx, call(t, tool.WriteName, dir, map[string]any{"file_path": p, "content": "x"})); !out.IsError || out.Content != tool.UseError(NotReadMessage) {
		t.Fatalf("overwrite unread: %+v", out)
	}
	edit := func(old, new string, all bool) tool.Output {
		out, err := a.Edit(ctx, call(t, tool.EditName, dir, map[string]any{"file_path": p, "old_string": old, "new_string": new, "replace_all": all}, p))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if out, _ := a.Edit(ctx, call(t, tool.EditName, dir, map[string]any{"file_path": p, "old_string": "b", "new_string": "c"})); !out.IsError || out.Content != tool.UseError(NotReadMessage) {
		t.Fatalf("edit unread: %+v", out)
	}
	if out := edit("a", "z", false); !out.IsError || !strings.Contains(out.Content, "Found 2 matches") {
		t.Fatalf("ambiguous edit: %+v", out)
	}
	if out := edit("q", "z", false); !out.IsError || !strings.Contains(out.Content, "not found") {
		t.Fatalf("missing string: %+v", out)
	}
	if out := edit("b", "c", false); out.IsError {
		t.Fatalf("unique edit: %+v", out)
	}
	if out := edit("a", "z", true); out.IsError {
		t.Fatalf("replace_all: %+v", out)
	}
	if b, _ := os.ReadFile(p); string(b) != "z z c\n" {
		t.Fatalf("file is %q", b)
	}
}

// Glob lists oldest first, relative to the working directory, as Claude Code does.
func TestGlobOldestFirstRelative(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	old, mid, newest := filepath.Join(dir, "a.go"), filepath.Join(dir, "x", "b.go"), filepath.Join(dir, "x", "y", "c.go")
	for i, p := range []string{old, mid, newest} {
		testfs.Write(t, p, "package x\n")
		ts := time.Unix(1_700_000_000+int64(i)*100, 0)
		os.Chtimes(p, ts, ts)
	}
	testfs.Write(t, filepath.Join(dir, "skip.txt"), "")
	out, _ := a.Glob(context.Background(), call(t, tool.GlobName, dir, map[string]any{"pattern": "**/*.go"}))
	if want := "a.go\nx/b.go\nx/y/c.go"; out.Content != want {
		t.Fatalf("glob:\n%s\nwant:\n%s", out.Content, want)
	}
	out, _ = a.Glob(context.Background(), call(t, tool.GlobName, dir, map[string]any{"pattern": "*", "path": "nope"}))
	if want := "Directory does not exist: nope. Note: your current working directory is " + dir + "."; !out.IsError || out.Content != want {
		t.Fatalf("missing directory: %+v", out)
	}
}

func TestGrepModesAndGitignore(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	testfs.Write(t, filepath.Join(dir, ".gitignore"), "ignored/\n")
	testfs.Write(t, filepath.Join(dir, "a.txt"), "hello\nTODO one\n")
	testfs.Write(t, filepath.Join(dir, "b.txt"), "TODO two\nTODO three\n")
	testfs.Write(t, filepath.Join(dir, "ignored", "c.txt"), "TODO hidden\n")
	ctx := context.Background()
	// Claude Code's order: newest first, paths relative to the working directory.
	ts := time.Unix(1_700_000_000, 0)
	os.Chtimes(filepath.Join(dir, "b.txt"), ts, ts) // older: listed after a.txt
	out, _ := a.Grep(ctx, call(t, tool.GrepName, dir, map[string]any{"pattern": "TODO"}))
	want := "Found 2 files\na.txt\nb.txt"
	if out.IsError || out.Content != want {
		t.Fatalf("files_with_matches:\n%s", out.Content)
	}
	out, _ = a.Grep(ctx, call(t, tool.GrepName, dir, map[string]any{"pattern": "todo", "-i": true, "-n": true, "output_mode": "content", "path": "b.txt"}))
	if out.Content != "1:TODO two\n2:TODO three" {
		t.Fatalf("content: %q", out.Content)
	}
	out, _ = a.Grep(ctx, call(t, tool.GrepName, dir, map[string]any{"pattern": "nothing-here"}))
	if out.IsError || out.Content != "No files found" {
		t.Fatalf("no match: %+v", out)
	}
}
