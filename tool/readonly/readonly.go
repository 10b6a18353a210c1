package readonly

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// IsReadOnlyBash reports whether command only reads: it parses as Bash, every
// program it runs is on the read-only allowlist (readOnlyPrograms) with safe
// flags, and nothing in it redirects output to a file, changes directory,
// defines functions or runs code that is only known when it runs. The Bash
// tool runs such commands in parallel and retries them after a lost worker.
func IsReadOnlyBash(command string) bool {
	readOnly, _ := ClassifyBash(command)
	return readOnly
}

// ClassifyBash returns the verdict of IsReadOnlyBash and, when the command is
// not read-only, a short human-readable reason such as "redirects output to a
// file", "git push is not read-only", "unknown program \"foo\"" or "cannot
// parse". It is pure and deterministic and never panics, because workflow
// code calls it.
func ClassifyBash(command string) (readOnly bool, reason string) {
	defer func() {
		// The parser is third-party code; a panic in it must not take the
		// workflow down, and "not read-only" is always the safe answer.
		if recover() != nil {
			readOnly, reason = false, "cannot parse"
		}
	}()
	reason = classifyBash(command)
	return reason == "", reason
}

// roMaxCommand and roMaxNesting bound the input before it reaches the
// recursive parser: deep nesting such as 100,000 "(" takes it seconds and can
// overflow the stack, which no recover catches. Real commands stay far below.
const (
	roMaxCommand = 64 << 10
	roMaxNesting = 256
)

// ShellTooBig reports whether command is too long or too deeply nested to hand
// to the shell parser safely. Every caller of mvdan.cc/sh in workflow code (this
// classifier, the permission rules) checks it first: such a command is treated as
// unparsable.
func ShellTooBig(command string) bool {
	return len(command) > roMaxCommand || roTooDeep(command)
}

// roTooDeep over-estimates how deeply command nests brackets and compound
// commands, ignoring quotes.
func roTooDeep(command string) bool {
	depth, word := 0, 0
	for i := 0; i <= len(command); i++ {
		c := byte(';')
		if i < len(command) {
			c = command[i]
		}
		if strings.IndexByte(" \t\n;&|(){}[]`", c) < 0 {
			continue
		}
		switch command[word:i] {
		case "if", "while", "until", "for", "select", "case":
			depth++
		case "fi", "done", "esac":
			depth = max(depth-1, 0)
		}
		word = i + 1
		switch c {
		case '(', '{', '[', '`':
			depth++
		case ')', '}', ']':
			depth = max(depth-1, 0)
		}
		if depth > roMaxNesting {
			return true
		}
	}
	return false
}

// classifyBash returns "" for a read-only command, else the reason. It is the
// panicking core of ClassifyBash, kept apart so that the fuzz test sees panics.
func classifyBash(command string) string {
	if ShellTooBig(command) {
		return "command is too long or too deeply nested to check"
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).
		Parse(strings.NewReader(command), "")
	if err != nil {
		return "cannot parse"
	}
	// Every node is visited, including those inside command and process
	// substitutions, here-documents and parameter expansions, so a command is
	// read-only only if each of its parts is; no construct needs its own
	// recursion.
	reason := ""
	syntax.Walk(file, func(n syntax.Node) bool {
		if reason != "" || n == nil {
			return false
		}
		reason = roNodeReason(n)
		return reason == ""
	})
	return reason
}

// roNodeReason judges one node on its own; its children are judged by Walk.
func roNodeReason(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.Stmt:
		if n.Coprocess || n.Disown {
			return "starts a coprocess"
		}
	case *syntax.CallExpr:
		if len(n.Args) == 0 {
			return "" // a bare assignment only changes the shell's own variables
		}
		argv := make([]roArg, len(n.Args))
		for i, w := range n.Args {
			argv[i].val, argv[i].known = roStatic(w)
		}
		return roArgvReason(argv)
	case *syntax.Redirect:
		return roRedirectReason(n)
	case *syntax.Assign:
		return roAssignReason(n)
	case *syntax.DeclClause:
		switch v := n.Variant.Value; v {
		case "export", "local", "readonly":
			for _, a := range n.Args {
				if a.Naked && a.Name == nil {
					return v + " with options or computed names is not read-only"
				}
			}
		default:
			// declare -i, -n and friends make later assignments evaluate code.
			return v + " is not read-only"
		}
	case *syntax.FuncDecl:
		return "defines a function"
	case *syntax.CoprocClause:
		return "starts a coprocess"
	case *syntax.TestDecl:
		return "defines a test"
	case *syntax.ParamExp:
		return roParamReason(n)
	case *syntax.ArithmExp:
		return roArithReason(n.X)
	case *syntax.ArithmCmd:
		return roArithReason(n.X)
	case *syntax.LetClause:
		for _, x := range n.Exprs {
			if r := roArithReason(x); r != "" {
				return r
			}
		}
	case *syntax.CStyleLoop:
		return roFirst(roArithReason(n.Init), roArithReason(n.Cond), roArithReason(n.Post))
	case *syntax.ArrayElem:
		return roArithReason(n.Index)
	case *syntax.BinaryTest:
		if n.Op >= syntax.TsEql && n.Op <= syntax.TsGtr { // -eq ... -gt evaluate arithmetic
			x, _ := n.X.(*syntax.Word)
			y, _ := n.Y.(*syntax.Word)
			if x == nil || y == nil {
				return roArithTaint
			}
			return roFirst(roArithReason(x), roArithReason(y))
		}
	case *syntax.UnaryTest:
		if n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar {
			w, _ := n.X.(*syntax.Word)
			if v, ok := roStaticPtr(w); !ok || strings.Contains(v, "[") {
				return "[[ -v ]] with a subscript can run commands"
			}
		}
	}
	return ""
}
