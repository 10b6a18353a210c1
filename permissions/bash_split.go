package permissions

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolpipe/toolpipe/tool/readonly"
)

// bashPart is one simple command of a Bash command line, or a construct that
// stands in for one (a declaration, a test, a redirected subshell); rules
// match parts, never the whole line, so that "safe && rm -rf /" is not
// allowed by a rule for "safe".
type bashPart struct {
	// text is the part as rules see it: its words as written (quotes kept),
	// joined by single spaces, without redirections, which Claude Code
	// ignores when matching (Bash(python:*) covers "python x.py > out").
	text string
	// stmt is the whole statement's source, redirections included, for the
	// read-only hook, which must see "> file" to judge it.
	stmt string
	// words and lits are the assignments then the arguments: as written,
	// and after quote removal (nonStatic when that depends on the run).
	words, lits []string
	assigns     int
	// unwrapped caches variants: [0] for allow rules, [1] for deny and ask.
	unwrapped     [2]string
	unwrappedDone [2]bool
}

// nonStatic marks a word whose value is only known when it runs; it cannot
// equal any program name.
const nonStatic = "\x00"

// splitBash parses command and returns its parts in source order, or false
// when it cannot be parsed, in which case no allow rule may cover it.
func splitBash(command string) (parts []bashPart, ok bool) {
	// The parse is readonly's, with its guards: too big or too deep to parse
	// safely, or holding a byte such as \r that bash reads differently ("touch
	// x\r# y" would match no Bash(touch:*) deny rule), and the command is
	// treated as one that does not parse.
	file, err := readonly.Parse(command)
	if err != nil {
		return nil, false
	}
	defer func() {
		// The walk below runs on third-party types in a workflow; a panic
		// must become "cannot parse", never a failed workflow task.
		if recover() != nil {
			parts, ok = nil, false
		}
	}()
	src := func(n syntax.Node) string {
		a, b := n.Pos().Offset(), n.End().Offset()
		if a > b || b > uint(len(command)) {
			return ""
		}
		return strings.TrimSpace(command[a:b])
	}
	// A statement's end includes its ";", which is not part of it.
	stmtSrc := func(st *syntax.Stmt) string {
		s := src(st)
		if st.Semicolon.IsValid() && strings.HasSuffix(s, ";") {
			s = strings.TrimSpace(s[:len(s)-1])
		}
		return s
	}
	// Walk visits statements nested anywhere (command substitutions, here-
	// documents, function bodies, conditions), so each becomes a part too.
	syntax.Walk(file, func(n syntax.Node) bool {
		st, isStmt := n.(*syntax.Stmt)
		if !isStmt {
			return true
		}
		var part bashPart
		switch c := st.Cmd.(type) {
		case *syntax.CallExpr:
			part = callPart(c, src)
		case nil, *syntax.DeclClause, *syntax.LetClause, *syntax.TestClause, *syntax.ArithmCmd,
			*syntax.FuncDecl, *syntax.CoprocClause, *syntax.TestDecl:
			// No rule is written for these, so they need their own rule
			// (or the read-only hook): "export PATH=x; git status" must
			// not pass as "git status".
			part.text = stmtSrc(st)
			if st.Cmd != nil {
				part.text = src(st.Cmd)
			}
		default:
			// Blocks, subshells, loops, pipelines: their statements are
			// parts. Redirections on them are a part of their own, so the
			// hook never sees "ls" alone for "(ls) > out".
			if len(st.Redirs) == 0 {
				return true
			}
			part.text = stmtSrc(st)
		}
		if part.text == "" && len(part.words) == 0 {
			return true
		}
		part.stmt = stmtSrc(st)
		parts = append(parts, part)
		return true
	})
	return parts, true
}

func callPart(c *syntax.CallExpr, src func(syntax.Node) string) bashPart {
	n := len(c.Assigns) + len(c.Args)
	p := bashPart{words: make([]string, 0, n), lits: make([]string, 0, n), assigns: len(c.Assigns)}
	for _, a := range c.Assigns {
		w := src(a)
		p.words, p.lits = append(p.words, w), append(p.lits, w)
	}
	for _, w := range c.Args {
		p.words = append(p.words, src(w))
		p.lits = append(p.lits, literal(w))
	}
	p.text = strings.Join(p.words, " ")
	return p
}

// literal returns the value of w after quote removal, or nonStatic.
func literal(w *syntax.Word) string {
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, `\{`) {
			return l.Value
		}
	}
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "{") {
				return nonStatic // brace expansion can make several words
			}
			for i := 0; i < len(p.Value); i++ {
				if p.Value[i] == '\\' && i+1 < len(p.Value) {
					i++
				}
				b.WriteByte(p.Value[i])
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return nonStatic
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.ContainsRune(l.Value, '\\') {
					return nonStatic
				}
				b.WriteString(l.Value)
			}
		default:
			return nonStatic
		}
	}
	return b.String()
}
