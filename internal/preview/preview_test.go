package preview

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPreviewCutRules(t *testing.T) {
	const limit = 10
	tests := []struct {
		name        string
		content     string
		wantPreview string
		wantMore    bool
	}{
		{"empty", "", "", false},
		{"shorter than max", "abc\ndef", "abc\ndef", false},
		{"exactly max", "0123456789", "0123456789", false},
		{"one over, no newline", "0123456789X", "0123456789", true},
		{"newline past half", "012345\n789X", "012345", true},
		{"newline at max-1", "012345678\nX", "012345678", true},
		{"newline at max is outside the window", "0123456789\nX", "0123456789", true},
		{"newline exactly at half", "01234\n6789X", "01234\n6789", true},
		{"newline before half", "012\n456789X", "012\n456789", true},
		{"last newline wins", "0\n23456\n89X", "0\n23456", true},
		{"2-byte rune across the cut", "012345678éX", "012345678", true},
		{"3-byte rune across the cut", "01234567€X", "01234567", true},
		{"4-byte rune across the cut", "0123456😀X", "0123456", true},
		{"rune ending at the cut", "012345😀X", "012345😀", true},
		{"newline wins over rune backoff", "01234567\n€X", "01234567", true},
		{"invalid bytes are not backed off over", "012345678\xe2\x82X", "012345678\xe2", true},
		{"stray continuation bytes", "0123\x80\x80\x80\x80\x80\x80\x80", "0123\x80\x80\x80\x80\x80\x80", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, more := Preview([]byte(tt.content), limit)
			if got != tt.wantPreview || more != tt.wantMore {
				t.Errorf("Preview(%q, %d) = %q, %v; want %q, %v", tt.content, limit, got, more, tt.wantPreview, tt.wantMore)
			}
		})
	}
}

func TestPreviewDefaultSize(t *testing.T) {
	lines := strings.Repeat(strings.Repeat("x", 99)+"\n", 30) // 3000 bytes, newline every 100
	got, more := Preview([]byte(lines), PreviewSizeBytes)
	if len(got) != 1999 || !more || strings.HasSuffix(got, "\n") {
		t.Errorf("len %d, more %v; want the 20 lines without the last newline", len(got), more)
	}
	if got, more := Preview([]byte("x"), -5); got != "" || !more {
		t.Errorf("negative max: %q, %v", got, more)
	}
}

func TestFormatSize(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 bytes"},
		{1, "1 bytes"},
		{512, "512 bytes"},
		{1023, "1023 bytes"},
		{1024, "1KB"},
		{1280, "1.3KB"}, // 1.25 rounds half up, as toFixed does
		{1536, "1.5KB"},
		{2000, "2KB"},
		{50_000, "48.8KB"},
		{1024*1024 - 1, "1024KB"},
		{1024 * 1024, "1MB"},
		{2_411_725, "2.3MB"},
		{1024 * 1024 * 1024, "1GB"},
		{1_181_116_006, "1.1GB"},
		{5 << 40, "5120GB"},
	}
	for _, tt := range tests {
		if got := FormatSize(tt.n); got != tt.want {
			t.Errorf("FormatSize(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestMessageGolden(t *testing.T) {
	p := Output{
		Path:    "/state/sess/tool-results/toolu_1.txt",
		Size:    123_456,
		Preview: "line 1\nline 2",
		HasMore: true,
	}
	want := "<persisted-output>\n" +
		"Output too large (120.6KB). Full output saved to: /state/sess/tool-results/toolu_1.txt\n" +
		"\n" +
		"Preview (first 2KB):\n" +
		"line 1\nline 2\n" +
		"...\n" +
		"</persisted-output>"
	if got := Message(p); got != want {
		t.Errorf("Message =\n%s\nwant\n%s", got, want)
	}
	p.HasMore = false
	p.Size = 900
	want = "<persisted-output>\n" +
		"Output too large (900 bytes). Full output saved to: /state/sess/tool-results/toolu_1.txt\n" +
		"\n" +
		"Preview (first 2KB):\n" +
		"line 1\nline 2\n" +
		"</persisted-output>"
	if got := Message(p); got != want {
		t.Errorf("Message =\n%s\nwant\n%s", got, want)
	}
}

func FuzzPreview(f *testing.F) {
	f.Add([]byte("hello\nworld"), uint16(8))
	f.Add(bytes.Repeat([]byte("é"), 1500), uint16(PreviewSizeBytes))
	f.Fuzz(func(t *testing.T, content []byte, maxBytes uint16) {
		for _, limit := range []int{PreviewSizeBytes, int(maxBytes)} {
			got, more := Preview(content, limit)
			if !bytes.HasPrefix(content, []byte(got)) {
				t.Fatalf("limit %d: preview %q is not a prefix", limit, got)
			}
			if len(got) > limit {
				t.Fatalf("limit %d: preview has %d bytes", limit, len(got))
			}
			if more != (len(got) < len(content)) {
				t.Fatalf("limit %d: hasMore %v for %d of %d bytes", limit, more, len(got), len(content))
			}
			if utf8.Valid(content) && !utf8.ValidString(got) {
				t.Fatalf("limit %d: preview of valid UTF-8 is invalid: %q", limit, got)
			}
			if !more {
				continue
			}
			// The cut rule: at the last newline within the limit when it lies past
			// half of it (the newline dropped), else at the limit less at most a
			// split character.
			if nl := bytes.LastIndexByte(content[:limit], '\n'); nl >= 0 && 2*nl > limit {
				if len(got) != nl {
					t.Fatalf("limit %d: cut at %d, want at the newline at %d", limit, len(got), nl)
				}
			} else if len(got) < limit-(utf8.UTFMax-1) {
				t.Fatalf("limit %d: cut at %d with no newline past half", limit, len(got))
			}
		}
	})
}

func BenchmarkPreview(b *testing.B) {
	content := bytes.Repeat([]byte("some log output, with a few words — and UTF-8\n"), 20_000)
	b.ReportAllocs()
	b.SetBytes(PreviewSizeBytes)
	for b.Loop() {
		Preview(content, PreviewSizeBytes)
	}
}

func TestShortenCutsByCharacters(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{{"héllo", 5, "héllo"}, {"héllo", 2, "hé…"}, {"ééé", 1, "é…"}, {"", 3, ""}, {"abc", 0, "…"}} {
		if got := Shorten(c.s, c.n); got != c.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
