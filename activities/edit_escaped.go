package activities

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf16"
)

// The reverse of a written-out escape, as Claude Code 2.1.328 does it: a file that
// writes its characters as \uXXXX escapes (JSON, JavaScript sources) is matched by
// an old_string with the characters themselves, and new_string's characters are
// written as escapes in the file's hexadecimal case.

// utf16Units is s in UTF-16 code units, the units Claude Code counts and escapes.
func utf16Units(s string) []uint16 { return utf16.Encode([]rune(s)) }

// escapedLen is the length, in UTF-16 units, of s with every non-ASCII unit
// written as a six-character escape.
func escapedLen(s string) int {
	n := 0
	for _, u := range utf16Units(s) {
		n++
		if u >= 0x80 {
			n += 5
		}
	}
	return n
}

// trailingBackslashes counts the backslashes right before s[end].
func trailingBackslashes(s string, end int) int {
	n := 0
	for end-1-n >= 0 && s[end-1-n] == '\\' {
		n++
	}
	return n
}

// findEscaped returns the text of file that old stands for with each of its
// non-ASCII characters written as a \uXXXX escape (either case of hexadecimal), or
// false: the first match whose escapes are not themselves escaped (an even number
// of backslashes before each), provided it is that text's first occurrence.
func findEscaped(old, file string) (string, bool) {
	if trailingBackslashes(old, len(old))%2 == 1 {
		return "", false
	}
	var pat strings.Builder
	var starts []int // offsets, in the escaped text, where a backslash must not be escaped
	if strings.HasPrefix(old, `\`) {
		starts = append(starts, 0)
	}
	pos := 0
	for _, u := range utf16Units(old) {
		if u < 0x80 {
			pat.WriteString(regexp.QuoteMeta(string(rune(u))))
			pos++
			continue
		}
		starts = append(starts, pos)
		pat.WriteString(`\\u`)
		for _, h := range fmt.Sprintf("%04x", u) {
			if h >= 'a' {
				pat.WriteString("[" + string(h) + strings.ToUpper(string(h)) + "]")
			} else {
				pat.WriteRune(h)
			}
		}
		pos += 6
	}
	re, err := regexp.Compile(pat.String())
	if err != nil {
		return "", false
	}
	for from := 0; from <= len(file); {
		loc := re.FindStringIndex(file[from:])
		if loc == nil {
			return "", false
		}
		c := from + loc[0]
		ok := true
		for _, g := range starts {
			if trailingBackslashes(file, c+g)%2 != 0 {
				ok = false
				break
			}
		}
		if ok {
			m := file[c : from+loc[1]]
			if strings.Index(file, m) == c {
				return m, true
			}
			return "", false
		}
		from = c + 1
	}
	return "", false
}

// hasNonASCII: s has a character outside ASCII.
func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// escapeLike writes new's non-ASCII characters as \uXXXX escapes the way actual,
// the escaped text old_string matched, writes them: a character old had is
// written with actual's digits, others in the case actual uses more.
func escapeLike(old, actual, new string) string {
	digits := map[uint16]string{}
	upper, lower := 0, 0
	c := 0
	for _, u := range utf16Units(old) {
		if u < 0x80 {
			c++
			continue
		}
		d := actual[c+2 : c+6]
		digits[u] = d
		for _, h := range d {
			switch {
			case h >= 'a' && h <= 'f':
				lower++
			case h >= 'A' && h <= 'F':
				upper++
			}
		}
		c += 6
	}
	var b strings.Builder
	for _, u := range utf16Units(new) {
		if u < 0x80 {
			b.WriteByte(byte(u))
			continue
		}
		d, ok := digits[u]
		if !ok {
			d = fmt.Sprintf("%04x", u)
			if upper > lower {
				d = strings.ToUpper(d)
			}
		}
		b.WriteString(`\u` + d)
	}
	return b.String()
}
