package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A long result line is cut by characters, so what starter prints stays UTF-8
// (issue 41 item 5): 99 x and an é printed \xc3 before the ellipsis.
func TestShortenedLinesStayUTF8(t *testing.T) {
	line := strings.Repeat("x", 99) + "é" + strings.Repeat("y", 10)
	for name, got := range map[string]string{"summarize": summarize(line + "\nmore"), "firstLine": firstLine(line)} {
		if !utf8.ValidString(got) || !strings.Contains(got, strings.Repeat("x", 99)+"é…") {
			t.Errorf("%s = %q: want the 100 characters and …, valid UTF-8", name, got)
		}
	}
	if got := firstLine("short é"); got != "short é" {
		t.Errorf("a short line: %q", got)
	}
}
