package filesearch

import (
	"fmt"
	"strings"
)

// Glob patterns as Claude Code 2.1.328's Glob reads them: it runs ripgrep with
// --glob PATTERN, so a pattern has gitignore's meaning. A pattern without a slash
// matches a file's name at any depth ("*.go" finds sub/b.go); one with a slash
// matches the path from the searched directory ("sub/*.go" finds sub/b.go, not
// x/sub/b.go); one that ends in a slash names directories, and Glob lists files.
// What ripgrep refuses is refused in its words (ripgrep 14, which Claude Code
// ships).

// GlobSyntaxError is a pattern ripgrep would refuse; Error is ripgrep's message.
type GlobSyntaxError struct {
	Pattern, Reason string
}

func (e *GlobSyntaxError) Error() string {
	return fmt.Sprintf("error parsing glob '%s': %s", e.Pattern, e.Reason)
}

// globMatcher matches relative paths as ripgrep's --glob does.
type globMatcher struct {
	pattern  string // doublestar syntax
	basename bool   // matched against the file's name, at any depth
	dirsOnly bool   // ends in "/": matches no file
}

// parseGlob checks pattern as ripgrep's glob parser does and returns its matcher.
func parseGlob(pattern string) (globMatcher, error) {
	clean, err := rgGlobSyntax(pattern)
	if err != nil {
		return globMatcher{}, err
	}
	m := globMatcher{}
	if strings.HasSuffix(clean, "/") {
		m.dirsOnly = true
		clean = strings.TrimRight(clean, "/")
	}
	m.basename = !strings.Contains(clean, "/")
	m.pattern = clean
	return m, nil
}

// rgGlobSyntax returns pattern without what ripgrep ignores (a '}' that closes
// nothing), or ripgrep's error for it.
func rgGlobSyntax(pattern string) (string, error) {
	bad := func(reason string) error { return &GlobSyntaxError{Pattern: pattern, Reason: reason} }
	var out strings.Builder
	rs := []rune(pattern)
	inAlt := false
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; r {
		case '\\':
			if i+1 >= len(rs) {
				return "", bad(`dangling '\'`)
			}
			out.WriteRune(r)
			out.WriteRune(rs[i+1])
			i++
		case '[':
			end, reason := classEnd(rs, i)
			if reason != "" {
				return "", bad(reason)
			}
			out.WriteString(string(rs[i : end+1]))
			i = end
		case '{':
			if inAlt {
				return "", bad("nested alternate groups are not allowed")
			}
			inAlt = true
			out.WriteRune(r)
		case '}':
			if inAlt {
				inAlt = false
				out.WriteRune(r)
			}
			// ripgrep drops a '}' that closes nothing.
		default:
			out.WriteRune(r)
		}
	}
	if inAlt {
		return "", bad("unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)")
	}
	return out.String(), nil
}

// classEnd is the index of the ']' closing the class that opens at i, or why
// there is none.
func classEnd(rs []rune, i int) (int, string) {
	j := i + 1
	if j < len(rs) && (rs[j] == '!' || rs[j] == '^') {
		j++
	}
	first := true
	for ; j < len(rs); j++ {
		if rs[j] == ']' && !first {
			return j, ""
		}
		if j+2 < len(rs) && rs[j+1] == '-' && rs[j+2] != ']' {
			if rs[j] > rs[j+2] {
				return 0, fmt.Sprintf("invalid range; '%c' > '%c'", rs[j], rs[j+2])
			}
			j += 2
		}
		first = false
	}
	return 0, "unclosed character class; missing ']'"
}
