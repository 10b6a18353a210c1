package readonly

import "strings"

// maxAlternatives bounds brace expansion; a pattern with more counts as
// matching anything.
const maxAlternatives = 64

// ExpandBraces returns the alternatives of the brace lists in p ({a,b}c is ac
// and bc), or false when there would be too many. With escapes, a backslash
// makes the next character literal (doublestar patterns); without, it is an
// ordinary character (a shell word after quote removal). Sequences ({1..9})
// are left as written: BraceRanges turns them into *.
func ExpandBraces(p string, escapes bool) ([]string, bool) {
	out := []string{p}
	for {
		var next []string
		changed := false
		for _, s := range out {
			open, end, commas := braceList(s, escapes)
			if open < 0 {
				next = append(next, s)
				continue
			}
			changed = true
			last := open + 1
			for _, c := range append(commas, end) {
				next = append(next, s[:open]+s[last:c]+s[end+1:])
				last = c + 1
			}
			if len(next) > maxAlternatives {
				return nil, false
			}
		}
		if !changed {
			return out, true
		}
		out = next
	}
}

// braceList finds the first brace list of s that has a comma at its top
// level: its braces and commas, or open -1.
func braceList(s string, escapes bool) (open, end int, commas []int) {
	for i := 0; i < len(s); i++ {
		if escapes && s[i] == '\\' {
			i++
			continue
		}
		if s[i] != '{' {
			continue
		}
		depth, cs := 0, []int(nil)
	scan:
		for j := i; j < len(s); j++ {
			switch {
			case escapes && s[j] == '\\':
				j++
			case s[j] == '{':
				depth++
			case s[j] == '}':
				depth--
				if depth == 0 {
					if len(cs) > 0 {
						return i, j, cs
					}
					break scan
				}
			case s[j] == ',' && depth == 1:
				cs = append(cs, j)
			}
		}
	}
	return -1, -1, nil
}

// BraceRanges replaces each sequence expression ({a..z}, {1..10..2}) by *,
// which matches every word the sequence makes.
func BraceRanges(p string) string {
	for {
		i := strings.Index(p, "..")
		if i < 0 {
			return p
		}
		open := strings.LastIndexByte(p[:i], '{')
		end := strings.IndexByte(p[i:], '}')
		if open < 0 || end < 0 || strings.ContainsAny(p[open+1:i], "{},") {
			return p
		}
		p = p[:open] + "*" + p[i+end+1:]
	}
}
