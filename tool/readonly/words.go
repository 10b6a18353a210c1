package readonly

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// arg is one word of a simple command as the checks see it. A word is known
// when it stands for exactly one field whose value is fixed before the command
// runs. Otherwise the checks must assume the worst of it, and how bad that is
// depends on two things the shell guarantees:
//
//   - pattern: the word is a glob or a brace list and nothing else varies in it
//     (src/*.go, {a,b}); it becomes any number of fields, each starting with
//     prefix (a glob that matches nothing stays as written, which starts with
//     it too). val is the pattern, quotes removed.
//   - single: the word is one field whatever it holds ("$x", a"$(cmd)"), which
//     starts with prefix.
//
// A word with an unquoted expansion ($x, $(cmd)) is neither: field splitting
// can turn it into several fields, any of which may start with "-" (x='a
// -delete' makes "find . -name $x" delete the tree).
type arg struct {
	val     string
	known   bool
	pattern bool
	single  bool
	prefix  string
}

// notOption reports whether no field of a can be read as an option: it cannot
// start with "-" (or "+", which find's -exec, date and set read specially).
func (a arg) notOption() bool {
	if a.known {
		return a.val == "" || a.val[0] != '-' && a.val[0] != '+'
	}
	return (a.pattern || a.single) && a.prefix != "" && a.prefix[0] != '-' && a.prefix[0] != '+'
}

// operand reports whether a may stand where a program expects operands (file
// names, not options): known, or a pattern or single field that cannot start
// with "-" or "+". Checks use it for words they treat as paths.
func (a arg) operand() bool { return a.known || a.notOption() }

// argOf reads one word. Glob characters count only unquoted and unescaped;
// a brace list is any unquoted "{" followed later in the word by an unquoted ","
// or "..": {"a","b"} is two words.
func argOf(w *syntax.Word) arg {
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, "\\{*?[") {
			return arg{val: l.Value, known: true, single: true, prefix: l.Value} // the common case, without allocating
		}
	}
	var b strings.Builder
	prefixEnd := -1 // where the literal prefix ends in b; -1 while it goes on
	glob, brace, quotedExp, unquotedExp := false, false, false, false
	openBrace, openBracket := false, false
	endPrefix := func() {
		if prefixEnd < 0 {
			prefixEnd = b.Len()
		}
	}
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			s := p.Value
			for i := 0; i < len(s); i++ {
				c := s[i]
				switch {
				case c == '\\' && i+1 < len(s):
					i++
					if s[i] != '\n' { // a backslash-newline is removed
						b.WriteByte(s[i])
					}
					continue
				case c == '*' || c == '?':
					glob = true
					endPrefix()
				case c == '[':
					openBracket = true // a pattern once an unquoted ] follows, even in a later part
					endPrefix()
				case c == ']' && openBracket:
					glob = true
				case c == '{':
					openBrace = true
					endPrefix() // conservative: the list may begin here
				case openBrace && (c == ',' || c == '.' && i+1 < len(s) && s[i+1] == '.'):
					brace = true
				}
				b.WriteByte(c)
			}
		case *syntax.SglQuoted:
			if p.Dollar && strings.Contains(p.Value, `\`) {
				quotedExp = true // $'\x2d' is only known once decoded
				endPrefix()
				continue
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				switch {
				case ok:
					unescape(&b, l.Value, "$`\"\\\n")
				case manyFields(q):
					unquotedExp = true // "$@" is a word per parameter: set -- x -delete
					endPrefix()
				default:
					quotedExp = true
					endPrefix()
				}
			}
		case *syntax.ParamExp:
			// $$, $?, ${#x} and friends are numbers: one field, never split.
			if numericParam(p) {
				quotedExp = true
			} else {
				unquotedExp = true
			}
			endPrefix()
		default:
			unquotedExp = true
			endPrefix()
		}
	}
	v := b.String()
	if prefixEnd < 0 {
		prefixEnd = len(v)
	}
	a := arg{val: v, prefix: v[:prefixEnd]}
	switch {
	case unquotedExp:
		a.prefix = ""
	case glob || brace:
		a.pattern = !quotedExp
		if quotedExp {
			a.prefix = ""
		}
	case quotedExp:
		a.single = true
	default:
		a.known, a.single, a.prefix = true, true, v
	}
	return a
}

// manyFields reports a quoted expansion that still makes a field per element:
// "$@", "${a[@]}", "${!prefix@}" (and ${a[@]:1} or ${a[@]/x/y}).
func manyFields(n syntax.WordPart) bool {
	p, ok := n.(*syntax.ParamExp)
	if !ok || p.Param == nil {
		return false
	}
	if p.Param.Value == "@" || p.Names == syntax.NamesPrefixWords {
		return true
	}
	if w, ok := p.Index.(*syntax.Word); ok {
		return w.Lit() == "@" // ${a[*]} joins, ${a[0]} is one element
	}
	return false
}

// numericParam reports a parameter expansion whose value is a number (bash's
// read-only or integer special parameters, or a length), which field
// splitting leaves whole.
func numericParam(p *syntax.ParamExp) bool {
	if p.Param == nil || p.Excl || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 || p.Exp != nil {
		return false
	}
	if p.Length {
		return true
	}
	switch p.Param.Value {
	case "$", "?", "#", "PPID", "BASHPID", "UID", "EUID", "LINENO", "RANDOM", "SECONDS":
		return true
	}
	return false
}

// static returns the single value word stands for after quote removal, and
// false when that depends on the run: parameters, command output, arithmetic,
// brace lists ({-o,x} is two words), $'...' escapes, and globs.
func static(w *syntax.Word) (string, bool) {
	a := argOf(w)
	return a.val, a.known
}

// staticPtr is static for a word that may be absent.
func staticPtr(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	return static(w)
}

// unescape writes s with backslash escapes removed; escapable lists the
// characters a backslash escapes, "" meaning all (as outside quotes).
func unescape(b *strings.Builder, s, escapable string) {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			next := s[i+1]
			if next == '\n' {
				i++
				continue
			}
			if escapable == "" || strings.IndexByte(escapable, next) >= 0 {
				b.WriteByte(next)
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
}
