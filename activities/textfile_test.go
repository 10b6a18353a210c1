package activities

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
)

// The file tools' text handling, Claude Code 2.1.328's (test/parity compares the
// same files with Claude Code itself: TestParityEncodings, TestParityEditWrite).

func TestLossyUTF8LikeTextDecoder(t *testing.T) {
	cases := map[string]string{
		"ok é":         "ok é",
		"\xfe\xffh":    "\uFFFD\uFFFDh",      // two invalid bytes, two replacements
		"caf\xe9\n":    "caf\uFFFD\n",        // a lead byte without its continuation
		"\xe2\x82x":    "\uFFFDx",            // a truncated sequence is one
		"\xf0\x9f\x98": "\uFFFD",             // truncated at the end
		"\xed\xa0\x80": "\uFFFD\uFFFD\uFFFD", // a surrogate: ED then two strays
		"a\xc0\xafb":   "a\uFFFD\uFFFDb",     // an overlong lead
	}
	for in, want := range cases {
		if got := lossyUTF8([]byte(in)); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

func TestDecodeTextKeepsEncodingAndLineEnds(t *testing.T) {
	crlf := decodeText([]byte("one\r\ntwo\r\nlone\n"))
	if crlf.text != "one\ntwo\nlone\n" || !crlf.crlf {
		t.Fatalf("CRLF file: %+v", crlf)
	}
	if got := string(crlf.encode("one\nTWO\nlone\n")); got != "one\r\nTWO\r\nlone\r\n" {
		t.Errorf("written back %q: the file's line ends, for every line", got)
	}
	if lf := decodeText([]byte("a\nb\nc\r\n")); lf.crlf {
		t.Error("mostly LF is written back LF")
	}
	utf16 := []byte{0xFF, 0xFE, 'h', 0, 0xE9, 0, '\r', 0, '\n', 0}
	f := decodeText(utf16)
	if !f.utf16 || f.text != "\uFEFFhé\n" || f.notText != "" {
		t.Fatalf("UTF-16LE file: %+v", f)
	}
	if got := f.encode(f.text); string(got) != string(utf16) {
		t.Errorf("UTF-16LE written back as % x", got)
	}
	for b, kind := range map[string]string{"\xfe\xff\x00h": utf16BE, "a\x00b": hasNUL, "caf\xe9": notUTF8, "\xef\xbb\xbfok": ""} {
		if got := decodeText([]byte(b)).notText; got != kind {
			t.Errorf("%q: notText %q, want %q", b, got, kind)
		}
	}
	if keepBOM("\uFEFFold", "new") != "\uFEFFnew" || keepBOM("\uFEFFold", "") != "" || keepBOM("old", "new") != "new" {
		t.Error("a byte-order mark is kept in front of new non-empty text")
	}
}

func TestEditMatching(t *testing.T) {
	file := "She said “hello” to me.\nIt’s ‘fine’.\n"
	actual, ok := findActual(file, `said "hello" to`)
	if !ok || actual != "said “hello” to" {
		t.Fatalf("straight quotes match curly ones: %q %v", actual, ok)
	}
	if got := styleNew(`said "hello" to`, actual, `said "bye" to`); got != "said “bye” to" {
		t.Errorf("new_string takes the file's quotes: %q", got)
	}
	actual, _ = findActual(file, "It's 'fine'.")
	if got := styleNew("It's 'fine'.", actual, "It's 'great', isn't it."); got != "It’s ‘great’, isn’t it." {
		t.Errorf("apostrophes between letters are right quotes: %q", got)
	}
	if got, ok := findActual("café", `caf\u00e9`); !ok || got != "café" {
		t.Errorf("\\u escapes match their characters: %q %v", got, ok)
	}
	if o, n := desanitise("<function_results>x", "<fnr>x", "<fnr>y"); o != "<function_results>x" || n != "<function_results>y" {
		t.Errorf("sanitised tags: %q %q", o, n)
	}
	if got := stripTrailingWhitespace("a  \r\nb\t\nc \u00a0\rd "); got != "a\r\nb\nc\rd" {
		t.Errorf("trailing whitespace: %q", got)
	}
	if got := replaceIn("keep\ndrop\nkeep2\n", "drop", "", false); got != "keep\nkeep2\n" {
		t.Errorf("deleting a line's text deletes the line: %q", got)
	}
}

// TestEditKeepsTheFile: an LF old_string matches in a CRLF file and the file stays
// CRLF; a UTF-16LE file stays UTF-16LE; a Latin-1 file is refused untouched; new
// text loses its trailing whitespace except in Markdown.
func TestEditKeepsTheFile(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name, content, old, new, want string
		refused                       string
	}{
		{name: "crlf.txt", content: "one\r\ntwo\r\nthree\r\n", old: "one\ntwo", new: "ONE\nTWO", want: "ONE\r\nTWO\r\nthree\r\n"},
		{name: "u16.txt", content: "\xff\xfea\x00\n\x00", old: "a", new: "é", want: "\xff\xfe\xe9\x00\n\x00"},
		{name: "latin1.txt", content: "caf\xe9\n", old: "caf", new: "tea", want: "caf\xe9\n", refused: "File is not valid UTF-8"},
		{name: "f.py", content: "a = 1\n", old: "a = 1", new: "a = 2   ", want: "a = 2\n"},
		{name: "f.md", content: "a\n", old: "a", new: "b  ", want: "b  \n"},
		{name: "empty.txt", content: "", old: "", new: "filled\n", want: "filled\n"},
	}
	for _, c := range cases {
		p := write(c.name, c.content)
		out, err := a.Edit(context.Background(), call(t, tool.EditName, dir,
			map[string]any{"file_path": p, "old_string": c.old, "new_string": c.new}, p))
		if err != nil {
			t.Fatal(err)
		}
		if c.refused != "" != out.IsError || c.refused != "" && !strings.Contains(out.Content, c.refused) {
			t.Errorf("%s: %+v", c.name, out)
		}
		if b, _ := os.ReadFile(p); string(b) != c.want {
			t.Errorf("%s: file %q, want %q", c.name, b, c.want)
		}
	}
}

// TestEditAfterAPartialRead: the result says the model's view is current only
// when it saw the whole file.
func TestEditAfterAPartialRead(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	p := filepath.Join(dir, "p.txt")
	os.WriteFile(p, []byte("one\ntwo\nthree\n"), 0o644)
	read, _ := a.Read(context.Background(), call(t, tool.ReadName, dir, map[string]any{"file_path": p, "limit": 1}))
	ctx := tool.Context{}.Apply(read.Modifier)
	if len(ctx.PartialFiles) != 1 {
		t.Fatalf("a Read of one line of three leaves the file partial: %+v", ctx)
	}
	c := call(t, tool.EditName, dir, map[string]any{"file_path": p, "old_string": "three", "new_string": "3"}, ctx.ReadFiles...)
	c.PartialFiles = ctx.PartialFiles
	out, _ := a.Edit(context.Background(), c)
	if out.Content != "The file "+p+" has been updated successfully." {
		t.Errorf("after a partial Read: %q", out.Content)
	}
	whole, _ := a.Read(context.Background(), call(t, tool.ReadName, dir, map[string]any{"file_path": p}))
	if ctx = ctx.Apply(whole.Modifier); len(ctx.PartialFiles) != 0 {
		t.Errorf("a whole Read makes it whole again: %+v", ctx)
	}
}
