package permissions

import (
	"strings"
)

// A Bash command may read a path it does not name: "cat .en?" and "grep -r KEY
// ." read .env. Whether some path a target of the command can reach (a shell
// pattern, a directory read recursively) is also one a rule or a private
// directory covers is decided here, on the patterns alone: two sequences of
// path segments, each segment a pattern, intersect when some path matches both.
// The answer errs towards "yes": a multibyte character, a character class or a
// brace list the matcher does not model counts as matching anything.

// seg is one path segment pattern, or, when many, any number of segments.
type seg struct {
	toks []tok
	// many: any number (zero included) of segments, at most one with upTo1;
	// with noDot none of them starts with "." (rg without --hidden skips dot
	// files).
	many, noDot, upTo1 bool
	// dotRule: as in bash filename expansion, a leading "." must be matched
	// by a literal "." (* does not match .env).
	dotRule bool
}

// tok matches bytes of a segment: one byte of set, or with star any number of them.
type tok struct {
	set  byteSet
	star bool
	lit  bool // a literal character (for the dot rule)
}

type byteSet [4]uint64

func (s *byteSet) add(b byte)     { s[b>>6] |= 1 << (b & 63) }
func (s byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s byteSet) and(t byteSet) byteSet {
	return byteSet{s[0] & t[0], s[1] & t[1], s[2] & t[2], s[3] & t[3]}
}
func (s byteSet) empty() bool { return s[0]|s[1]|s[2]|s[3] == 0 }

var (
	allBytes = byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	// contBytes are UTF-8 continuation bytes: after one byte of a pattern's
	// "any character", a multibyte character goes on with them.
	contBytes = func() byteSet {
		var s byteSet
		for b := 0x80; b <= 0xbf; b++ {
			s.add(byte(b))
		}
		return s
	}()
	allButSlash = func() byteSet {
		s := allBytes
		s[0] &^= 1 << '/'
		return s
	}()
)

// literalSeg matches exactly s.
func literalSeg(s string) seg {
	g := seg{toks: make([]tok, 0, len(s))}
	for i := 0; i < len(s); i++ {
		var set byteSet
		set.add(s[i])
		g.toks = append(g.toks, tok{set: set, lit: true})
	}
	return g
}

// patternSeg reads one segment of a shell or doublestar pattern: *, ?,
// [...] (with ! or ^ negating, and [:classes:] taken for any character) and,
// for doublestar, backslash escapes.
func patternSeg(p string, escapes bool) seg {
	var g seg
	anyChar := func(set byteSet) {
		g.toks = append(g.toks, tok{set: set}, tok{set: contBytes, star: true})
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && escapes && i+1 < len(p):
			i++
			g.toks = append(g.toks, literalSeg(p[i:i+1]).toks...)
		case c == '*':
			g.toks = append(g.toks, tok{set: allButSlash, star: true})
		case c == '?':
			anyChar(allButSlash)
		case c == '[':
			end, set, ok := bracket(p, i)
			if !ok {
				g.toks = append(g.toks, literalSeg("[").toks...)
				continue
			}
			anyChar(set)
			i = end
		default:
			g.toks = append(g.toks, literalSeg(p[i:i+1]).toks...)
		}
	}
	return g
}

// bracket reads the bracket expression at p[i] ('['), returning where it ends
// and the bytes it may start a character with. Anything it cannot model
// (classes, negation, non-ASCII members) makes it match any character.
func bracket(p string, i int) (int, byteSet, bool) {
	j := i + 1
	negate := j < len(p) && (p[j] == '!' || p[j] == '^')
	if negate {
		j++
	}
	start := j
	if j < len(p) && p[j] == ']' {
		j++
	}
	for j < len(p) && p[j] != ']' {
		if p[j] == '[' && j+1 < len(p) && strings.IndexByte(":.=", p[j+1]) >= 0 {
			if k := strings.Index(p[j+2:], string(p[j+1])+"]"); k >= 0 {
				j += k + 4
				continue
			}
		}
		j++
	}
	if j >= len(p) {
		return 0, byteSet{}, false
	}
	members := p[start:j]
	if negate || strings.Contains(members, "[") || strings.ContainsFunc(members, func(r rune) bool { return r >= 0x80 }) {
		return j, allButSlash, true
	}
	var set byteSet
	for k := 0; k < len(members); k++ {
		if k+2 < len(members) && members[k+1] == '-' {
			for b := int(members[k]); b <= int(members[k+2]); b++ {
				set.add(byte(b))
			}
			k += 2
			continue
		}
		set.add(members[k])
	}
	return j, set, true
}

// segsIntersect reports whether some segment matches both a and b: a search
// over pairs of positions in the two (and whether a byte was matched yet, for
// the dot rule).
func segsIntersect(a, b seg) bool {
	type state struct {
		x, y  int
		first bool
	}
	w := len(b.toks) + 1
	seen := make([]bool, (len(a.toks)+1)*w*2)
	var stack []state
	push := func(s state) {
		k := (s.x*w + s.y) * 2
		if s.first {
			k++
		}
		if !seen[k] {
			seen[k] = true
			stack = append(stack, s)
		}
	}
	push(state{0, 0, true})
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.x == len(a.toks) && s.y == len(b.toks) && !s.first {
			return true
		}
		// A star may match nothing.
		if s.x < len(a.toks) && a.toks[s.x].star {
			push(state{s.x + 1, s.y, s.first})
		}
		if s.y < len(b.toks) && b.toks[s.y].star {
			push(state{s.x, s.y + 1, s.first})
		}
		if s.x == len(a.toks) || s.y == len(b.toks) {
			continue
		}
		ta, tb := a.toks[s.x], b.toks[s.y]
		set := ta.set.and(tb.set)
		if s.first {
			if a.dotRule && !(ta.lit && ta.set.has('.')) || b.dotRule && !(tb.lit && tb.set.has('.')) {
				set[0] &^= 1 << '.'
			}
		}
		if set.empty() {
			continue
		}
		nx, ny := s.x+1, s.y+1
		if ta.star {
			nx = s.x
		}
		if tb.star {
			ny = s.y
		}
		push(state{nx, ny, false})
	}
	return false
}

// anySeg matches any one segment (without a leading "." when noDot).
func anySeg(noDot bool) seg {
	return seg{toks: []tok{{set: allButSlash, star: true}}, dotRule: noDot}
}

// pathsIntersect reports whether some path matches both segment sequences.
func pathsIntersect(a, b []seg) bool {
	w := len(b) + 1
	seen := make([]bool, (len(a)+1)*w)
	var walk func(i, j int) bool
	walk = func(i, j int) bool {
		if seen[i*w+j] {
			return false
		}
		seen[i*w+j] = true
		if i == len(a) && j == len(b) {
			return true
		}
		// After one segment, a many that takes at most one is done.
		after := func(g seg, k int) int {
			if g.upTo1 {
				return k + 1
			}
			return k
		}
		if i < len(a) && a[i].many {
			if walk(i+1, j) || j < len(b) && !b[j].many && segsIntersect(anySeg(a[i].noDot), b[j]) && walk(after(a[i], i), j+1) {
				return true
			}
		}
		if j < len(b) && b[j].many {
			if walk(i, j+1) || i < len(a) && !a[i].many && segsIntersect(a[i], anySeg(b[j].noDot)) && walk(i+1, after(b[j], j)) {
				return true
			}
		}
		if i < len(a) && j < len(b) && !a[i].many && !b[j].many && segsIntersect(a[i], b[j]) {
			return walk(i+1, j+1)
		}
		return false
	}
	return walk(0, 0)
}
