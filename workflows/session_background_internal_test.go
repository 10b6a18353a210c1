package workflows

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A carried task's texts are cut to carriedTextMax bytes at a rune boundary, so
// continue-as-new's input stays small whatever the commands were.
func TestCapText(t *testing.T) {
	if capText("ls") != "ls" {
		t.Fatal("a short command was changed")
	}
	long := strings.Repeat("é", carriedTextMax) // 2 bytes each
	got := capText(long)
	if !utf8.ValidString(got) || len(got) > carriedTextMax+len("…") || !strings.HasSuffix(got, "…") {
		t.Fatalf("cut to %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
}
