package activities

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/testfs"
	"github.com/toolpipe/toolpipe/tool"
)

// Issue 14 item 4: a file over 256 KB read without a range, or a result over 25,000
// tokens, is refused with Claude Code's message, which points at a range or Grep;
// a range of the same file, and allow_large, read it.
func TestReadSizeAndTokenLimits(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	ctx := context.Background()
	big := filepath.Join(dir, "big.txt")
	testfs.Write(t, big, strings.Repeat("0123456789abcdef\n", 17000)) // 289,000 bytes
	out, _ := a.Read(ctx, call(t, tool.ReadName, dir, map[string]any{"file_path": big}))
	if want := "File content (282.2KB) exceeds maximum allowed size (256KB). Use offset and limit parameters"; !out.IsError || !strings.HasPrefix(out.Content, want) {
		t.Fatalf("over 256 KB: %.200q", out.Content)
	}
	out, _ = a.Read(ctx, call(t, tool.ReadName, dir, map[string]any{"file_path": big, "offset": 3, "limit": 2}))
	if out.IsError || out.Content != "3\t0123456789abcdef\n4\t0123456789abcdef" {
		t.Fatalf("a range of a big file: %q", out.Content)
	}
	out, _ = a.Read(ctx, call(t, tool.ReadName, dir, map[string]any{"file_path": big, "allow_large": true}))
	if out.IsError || !strings.HasSuffix(out.Content, "\n17000\t0123456789abcdef\n17001\t") {
		t.Fatalf("allow_large: %.200q", out.Content)
	}
	// 40,000 CJK characters are 120,000 bytes (under 256 KB) but about 10,000 tokens
	// by characters; 110,000 of them are over 25,000 tokens and refused.
	cjk := filepath.Join(dir, "cjk.txt")
	testfs.Write(t, cjk, strings.Repeat("字", 40000)+"\n")
	if out, _ = a.Read(ctx, call(t, tool.ReadName, dir, map[string]any{"file_path": cjk})); out.IsError {
		t.Fatalf("40,000 CJK characters: %.200q", out.Content)
	}
	testfs.Write(t, cjk, strings.Repeat("字", 80000)+"\n") // 240,000 bytes: under the size limit
	out, _ = a.Read(ctx, call(t, tool.ReadName, dir, map[string]any{"file_path": cjk}))
	if want := "File content (20002 tokens)"; out.IsError {
		t.Fatalf("80,000 CJK characters are about 20,000 tokens, under the limit: %.200q (%s)", out.Content, want)
	}
	words := filepath.Join(dir, "words.txt")
	testfs.Write(t, words, strings.Repeat("word ", 24000)+"\n") // 120,001 bytes, ~30,000 tokens
	out, _ = a.Read(ctx, call(t, tool.ReadName, dir, map[string]any{"file_path": words}))
	if !out.IsError || !strings.HasPrefix(out.Content, "File content (30002 tokens) exceeds maximum allowed tokens (25000). Use offset and limit parameters") || !strings.Contains(out.Content, "Grep") {
		t.Fatalf("over 25,000 tokens: %.300q", out.Content)
	}
	if out, _ = a.Read(ctx, call(t, tool.ReadName, dir, map[string]any{"file_path": words, "allow_large": true})); out.IsError {
		t.Fatalf("allow_large over the token limit: %.200q", out.Content)
	}
}

// Read's inputs that Claude Code accepts: offset 0 and negative values mean the
// defaults, pages is checked but ignored for text, a relative path is taken from the
// working directory.
func TestReadAcceptsClaudeCodeInputs(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	ctx := context.Background()
	testfs.Write(t, filepath.Join(dir, "a.txt"), "l1\nl2\nl3\n")
	for _, in := range []map[string]any{
		{"file_path": "a.txt"},
		{"file_path": filepath.Join(dir, "a.txt"), "offset": 0},
		{"file_path": filepath.Join(dir, "a.txt"), "offset": -1, "limit": -1},
		{"file_path": filepath.Join(dir, "a.txt"), "pages": "1-2"},
	} {
		out, _ := a.Read(ctx, call(t, tool.ReadName, dir, in))
		if out.IsError || out.Content != "1\tl1\n2\tl2\n3\tl3\n4\t" {
			t.Errorf("%v: %q", in, out.Content)
		}
	}
	out, _ := a.Read(ctx, call(t, tool.ReadName, dir, map[string]any{"file_path": "a.txt", "pages": "1,3"}))
	if !out.IsError || !strings.HasPrefix(out.Content, "<tool_use_error>Invalid pages parameter: \"1,3\"") {
		t.Errorf("bad pages: %q", out.Content)
	}
}
