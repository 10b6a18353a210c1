package activities

import "testing"

// TestEditMatchesEscapedText: an old_string with characters matches a file that
// writes them as \uXXXX escapes, and new_string is written in the file's escapes
// (test/parity: TestParitySweep, sw_esc_char_for_literal).
func TestEditMatchesEscapedText(t *testing.T) {
	cases := []struct{ file, old, new, actual, styled string }{
		{`s = "caf\u00e9";`, "café", "thé", `caf\u00e9`, `th\u00e9`},
		{`s = "caf\u00E9";`, "café", "thè", `caf\u00E9`, `th\u00E8`},
		{`s = "\u00e9" + "é";`, "é", "è", "é", "è"},                      // the character itself first
		{`s = "\\u00e9";`, "é", "è", "", ""},                             // the backslash is escaped: no match
		{`a = "\ud83d\ude00"`, "😀", "😁", `\ud83d\ude00`, `\ud83d\ude01`}, // a surrogate pair
	}
	for _, c := range cases {
		actual, ok := findActual(c.file, c.old)
		if actual != c.actual || ok != (c.actual != "") {
			t.Errorf("%q in %q: matched %q %v, want %q", c.old, c.file, actual, ok, c.actual)
			continue
		}
		if ok {
			if got := styleNew(c.old, actual, c.new); got != c.styled {
				t.Errorf("%q for %q: new_string %q, want %q", c.new, actual, got, c.styled)
			}
		}
	}
	if got := unescapeUnicode(`smile \ud83d\ude00 \\u00e9`); got != `smile 😀 \\u00e9` {
		t.Errorf("unescape: %q", got)
	}
}
