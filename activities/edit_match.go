package activities

import (
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// How Edit finds old_string and what it writes, as Claude Code 2.1.328 does: an
// old_string with straight quotes matches the file's curly ones (and new_string
// takes the file's style), \uXXXX escapes match the characters they stand for,
// tags a transcript sanitised (<fnr>) match the real ones, new_string loses its
// trailing whitespace except in Markdown, and deleting a line's text deletes the
// line.

// curly quotes and the straight ones they match.
const (
	leftSingle  = '\u2018'
	rightSingle = '\u2019'
	leftDouble  = '\u201C'
	rightDouble = '\u201D'
)

func straightQuote(r rune) rune {
	switch r {
	case leftSingle, rightSingle:
		return '\''
	case leftDouble, rightDouble:
		return '"'
	}
	return r
}

// unicodeEscape is an escaped backslash (kept), an escaped surrogate pair or one
// \uXXXX escape.
var unicodeEscape = regexp.MustCompile(`(\\\\)|\\u[dD][89aAbB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u([0-9a-fA-F]{4})`)

// hasUnicodeEscape: s has a \uXXXX.
var hasUnicodeEscape = regexp.MustCompile(`\\u[0-9a-fA-F]{4}`)

// unescapeUnicode replaces the \uXXXX escapes of s by their characters.
func unescapeUnicode(s string) string {
	return unicodeEscape.ReplaceAllStringFunc(s, func(m string) string {
		if m == `\\` {
			return m
		}
		n, _ := strconv.ParseUint(m[2:6], 16, 32)
		if len(m) == 12 {
			lo, _ := strconv.ParseUint(m[8:], 16, 32)
			return string(utf16.DecodeRune(rune(n), rune(lo)))
		}
		return string(rune(n))
	})
}

// findActual returns the text of the file old_string stands for, or false.
func findActual(file, old string) (string, bool) {
	if strings.Contains(file, old) {
		return old, true
	}
	fr, or := []rune(file), []rune(old)
	norm := func(rs []rune) []rune {
		out := make([]rune, len(rs))
		for i, r := range rs {
			out[i] = straightQuote(r)
		}
		return out
	}
	nf, no := norm(fr), norm(or)
	for i := 0; i+len(no) <= len(nf) && len(no) > 0; i++ {
		if slices.Equal(nf[i:i+len(no)], no) {
			return string(fr[i : i+len(or)]), true
		}
	}
	if hasUnicodeEscape.MatchString(old) {
		if u := unescapeUnicode(old); u != old && strings.Contains(file, u) {
			return u, true
		}
	}
	if hasNonASCII(old) {
		// The file may write old's characters as escapes (edit_escaped.go).
		if escapedLen(old) > len(utf16Units(file)) || !strings.Contains(file, `\u`) {
			return "", false
		}
		return findEscaped(old, file)
	}
	return "", false
}

// styleNew gives new_string the style the match found: the file's curly quotes
// where old_string had straight ones, then characters where it had \uXXXX
// escapes, or escapes where the file has them for its characters.
func styleNew(old, actual, new string) string {
	if old == actual {
		return new
	}
	return styleEscapes(old, actual, styleQuotes(actual, new))
}

// styleEscapes is new with the escapes of the match: escapes where the file wrote
// old's characters as escapes (escapeLike), characters where old's escapes stood
// for the file's characters.
func styleEscapes(old, actual, new string) string {
	if hasNonASCII(old) && escapedLen(old) == len(utf16Units(actual)) {
		if _, ok := findEscaped(old, actual); ok {
			return escapeLike(old, actual, new)
		}
	}
	if hasUnicodeEscape.MatchString(old) && unescapeUnicode(old) == actual {
		return unescapeUnicode(new)
	}
	return new
}

// styleQuotes is new in the file's curly quotes where the match has them.
func styleQuotes(actual, new string) string {
	double := strings.ContainsAny(actual, string([]rune{leftDouble, rightDouble}))
	single := strings.ContainsAny(actual, string([]rune{leftSingle, rightSingle}))
	if double || single {
		rs := []rune(new)
		out := make([]rune, len(rs))
		for i, r := range rs {
			out[i] = r
			switch {
			case r == '"' && double:
				out[i] = rightDouble
				if opens(rs, i) {
					out[i] = leftDouble
				}
			case r == '\'' && single:
				out[i] = rightSingle
				between := i > 0 && i < len(rs)-1 && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1])
				if !between && opens(rs, i) {
					out[i] = leftSingle
				}
			}
		}
		return string(out)
	}
	return new
}

// opens: a quote at i opens (it starts the text or follows a space, a line end,
// an opening bracket or a dash).
func opens(rs []rune, i int) bool {
	if i == 0 {
		return true
	}
	switch rs[i-1] {
	case ' ', '\t', '\n', '\r', '(', '[', '{', '\u2014', '\u2013':
		return true
	}
	return false
}

// sanitisedTags are what a transcript's sanitiser made of tags, in the order
// Claude Code undoes them.
var sanitisedTags = [][2]string{
	{"<fnr>", "<function_results>"}, {"<n>", "<name>"}, {"</n>", "</name>"},
	{"<o>", "<output>"}, {"</o>", "</output>"}, {"<e>", "<error>"}, {"</e>", "</error>"},
	{"<s>", "<system>"}, {"</s>", "</system>"}, {"<r>", "<result>"}, {"</r>", "</result>"},
	{"< META_START >", "<META_START>"}, {"< META_END >", "<META_END>"}, {"< EOT >", "<EOT>"},
	{"< META >", "<META>"}, {"< SOS >", "<SOS>"}, {"\n\nH:", "\n\nHuman:"}, {"\n\nA:", "\n\nAssistant:"},
}

// desanitise: when the file lacks old_string but has it with the sanitised tags
// restored, both strings get them restored.
func desanitise(file, old, new string) (string, string) {
	if strings.Contains(file, old) {
		return old, new
	}
	o, n := old, new
	for _, t := range sanitisedTags {
		if r := strings.ReplaceAll(o, t[0], t[1]); r != o {
			o, n = r, strings.ReplaceAll(n, t[0], t[1])
		}
	}
	if o != old && strings.Contains(file, o) {
		return o, n
	}
	return old, new
}

// isMarkdown: Markdown keeps trailing whitespace (two spaces break a line).
func isMarkdown(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".md" || ext == ".mdx"
}

// lineBreak splits text into lines and their ends, as Claude Code's
// /(\r\n|\n|\r)/ does.
var lineBreak = regexp.MustCompile(`\r\n|\n|\r`)

// stripTrailingWhitespace removes the whitespace at the end of every line of s
// (JavaScript's \s: spaces, tabs, form feeds, NBSP and the Unicode spaces).
func stripTrailingWhitespace(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range lineBreak.FindAllStringIndex(s, -1) {
		b.WriteString(strings.TrimRightFunc(s[last:m[0]], isJSSpace))
		b.WriteString(s[m[0]:m[1]])
		last = m[1]
	}
	b.WriteString(strings.TrimRightFunc(s[last:], isJSSpace))
	return b.String()
}

func isJSSpace(r rune) bool { return r == '\uFEFF' || unicode.IsSpace(r) }

// replaceIn is the file after the edit: the first (or every) occurrence of old
// replaced; deleting text that ends a line (new empty, old without its newline)
// deletes the line's newline too.
func replaceIn(file, old, new string, all bool) string {
	if new == "" && !strings.HasSuffix(old, "\n") && strings.Contains(file, old+"\n") {
		old += "\n"
	}
	if all {
		return strings.ReplaceAll(file, old, new)
	}
	return strings.Replace(file, old, new, 1)
}
