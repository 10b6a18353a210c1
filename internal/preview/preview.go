package preview

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// PreviewSizeBytes is how much of a persisted output the model sees inline.
const PreviewSizeBytes = 2000

// The tags around a persisted-output stub. The conversation budget recognises an
// already-persisted result by Tag: it is a short preview of a file on disk, and
// replacing it would persist the preview instead of the output (DESIGN §4).
const (
	Tag        = "<persisted-output>"
	ClosingTag = "</persisted-output>"
)

// Preview returns the start of content, at most maxBytes bytes, for the stub the model
// sees. It cuts at the last newline when that newline lies past half of maxBytes (a whole
// last line reads better than a fragment, but not at the cost of half the preview),
// and otherwise at maxBytes, backed off so that no UTF-8 sequence is split. The newline
// itself is not included. hasMore is true when content is longer than the preview.
// A maxBytes below zero is treated as zero.
func Preview(content []byte, maxBytes int) (preview string, hasMore bool) {
	return PreviewHead(content, int64(len(content)), maxBytes)
}

// PreviewHead is Preview over the first bytes of a content of size total, so that a
// preview can be built from a file or a stream without holding all of it. head must
// hold min(total, maxBytes+utf8.UTFMax) bytes, enough to see a rune straddling the cut.
func PreviewHead(head []byte, total int64, maxBytes int) (string, bool) {
	limit := max(maxBytes, 0)
	if total <= int64(limit) {
		return string(head[:min(int64(len(head)), total)]), false
	}
	limit = min(limit, len(head)) // a short head is a caller bug; do not panic on it
	cut := RuneBoundary(head, limit)
	if nl := bytes.LastIndexByte(head[:limit], '\n'); nl >= 0 && 2*nl > limit {
		cut = nl
	}
	return string(head[:cut]), true
}

// RuneBoundary returns the largest cut <= n that does not split a valid UTF-8
// sequence of b. When b ends within a sequence that could still be valid (b is a
// prefix of a longer output), that sequence is dropped too. Invalid bytes are not
// backed off over: they are not a character to keep whole, and backing off over a run
// of them could eat the whole preview.
func RuneBoundary(b []byte, n int) int {
	n = min(n, len(b))
	for i := n - 1; i >= 0 && i > n-utf8.UTFMax; i-- {
		if !utf8.RuneStart(b[i]) {
			continue
		}
		if !utf8.FullRune(b[i:]) {
			return i
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return n
		}
		if i+size > n {
			return i
		}
		return n
	}
	return n
}

// FormatSize renders a size the way Claude Code's formatFileSize does: "512 bytes",
// "1.5KB", "2.3MB", "1.1GB", with one decimal, a trailing ".0" dropped, and 1024 as
// the unit step. Rounding is half up like JavaScript's toFixed, so the stub text is
// the reference's to the byte.
func FormatSize(n int64) string {
	const kb = 1024
	switch {
	case n < kb:
		return strconv.FormatInt(n, 10) + " bytes"
	case n < kb*kb:
		return tenths(n, kb) + "KB"
	case n < kb*kb*kb:
		return tenths(n, kb*kb) + "MB"
	default:
		return tenths(n, kb*kb*kb) + "GB"
	}
}

// tenths formats n/unit with one decimal, rounding half up, in integers so that large
// sizes do not lose precision.
func tenths(n, unit int64) string {
	q, r := n/unit, n%unit
	t := q*10 + (r*10)/unit
	if 2*((r*10)%unit) >= unit {
		t++
	}
	s := strconv.FormatInt(t/10, 10)
	if d := t % 10; d != 0 {
		s += "." + strconv.FormatInt(d, 10)
	}
	return s
}

// Output describes a stored tool output: enough to build the stub the model sees
// without reading the file again.
type Output struct {
	// Path is the absolute path of the stored file, which the model can Read.
	Path string
	// Size is the size in bytes of the stored output.
	Size int64
	// Structured is true when the output is JSON (stored as .json).
	Structured bool
	// Preview is the start of the stored output, as cut by Preview.
	Preview string
	// HasMore is true when the output continues past Preview.
	HasMore bool
	// Existed is true when the result had already been stored by an earlier attempt and
	// this call's content was discarded.
	Existed bool
}

// Message is the text the model sees in place of a persisted output; its shape is
// Claude Code's buildLargeToolResultMessage, byte for byte.
func Message(p Output) string {
	var b strings.Builder
	b.Grow(len(p.Preview) + len(p.Path) + 160)
	b.WriteString(Tag + "\n")
	b.WriteString("Output too large (" + FormatSize(p.Size) + "). ")
	b.WriteString("Full output saved to: " + p.Path + "\n\n")
	b.WriteString("Preview (first " + FormatSize(PreviewSizeBytes) + "):\n")
	b.WriteString(p.Preview)
	if p.HasMore {
		b.WriteString("\n...\n")
	} else {
		b.WriteString("\n")
	}
	b.WriteString(ClosingTag)
	return b.String()
}

// Shorten is s cut to at most n characters, with "…" after it when it was
// longer. A line shortened for display is cut by characters, never by bytes: a
// byte cut can split a character, and a program reading the output as UTF-8
// then fails (issue 41 item 5).
func Shorten(s string, n int) string {
	i := 0
	for k := range s {
		if i == n {
			return s[:k] + "…"
		}
		i++
	}
	return s
}
