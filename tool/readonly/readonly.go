package readonly

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// IsReadOnly reports whether command only reads: it parses as Bash, every
// program it runs is on the read-only allowlist (programs) with safe
// flags, and nothing in it redirects output to a file, changes directory,
// defines functions or runs code that is only known when it runs. The Bash
// tool runs such commands in parallel and retries them after a lost worker.
func IsReadOnly(command string) bool {
	readOnly, _ := Classify(command)
	return readOnly
}

// Classify returns the verdict of IsReadOnly and, when the command is
// not read-only, a short human-readable reason such as "redirects output to a
// file", "git push is not read-only", "unknown program \"foo\"" or "cannot
// parse". It is pure and deterministic and never panics, because workflow
// code calls it.
func Classify(command string) (readOnly bool, reason string) {
	defer func() {
		// The parser is third-party code; a panic in it must not take the
		// workflow down, and "not read-only" is always the safe answer.
		if recover() != nil {
			readOnly, reason = false, "cannot parse"
		}
	}()
	reason = classify(command)
	return reason == "", reason
}

// classify returns "" for a read-only command, else the reason. It is the
// panicking core of Classify, kept apart so that the fuzz test sees panics.
func classify(command string) string {
	file, reason := parse(command)
	if reason != "" {
		return reason
	}
	// Every node is visited, including those inside command and process
	// substitutions, here-documents and parameter expansions, so a command is
	// read-only only if each of its parts is; no construct needs its own
	// recursion.
	syntax.Walk(file, func(n syntax.Node) bool {
		if reason != "" || n == nil {
			return false
		}
		reason = nodeReason(n)
		return reason == ""
	})
	return reason
}

// nodeReason judges one node on its own; its children are judged by Walk.
func nodeReason(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.Stmt:
		if n.Coprocess || n.Disown {
			return "starts a coprocess"
		}
	case *syntax.CallExpr:
		if len(n.Args) == 0 {
			return "" // a bare assignment only changes the shell's own variables
		}
		argv := make([]arg, len(n.Args))
		for i, w := range n.Args {
			argv[i] = argOf(w)
		}
		return argvReason(argv)
	case *syntax.Redirect:
		return redirectReason(n)
	case *syntax.Assign:
		return assignReason(n)
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
	case *syntax.DblQuoted:
		if n.Dollar {
			// $"..." is translated through the message catalog TEXTDOMAIN and
			// TEXTDOMAINDIR name, and the translation is expanded as a double-quoted
			// string: a catalog in the repository turns it into any $(...).
			return `$"..." is translated through a message catalog, and the translation can run commands`
		}
	case *syntax.FuncDecl:
		return "defines a function"
	case *syntax.CoprocClause:
		return "starts a coprocess"
	case *syntax.TestDecl:
		return "defines a test"
	case *syntax.ParamExp:
		return firstReason(paramReason(n), paramAssignReason(n))
	case *syntax.WordIter:
		return implicitReason("a for or select loop", n.Name.Value)
	case *syntax.ArithmExp:
		return arithReason(n.X)
	case *syntax.ArithmCmd:
		return arithReason(n.X)
	case *syntax.LetClause:
		for _, x := range n.Exprs {
			if r := arithReason(x); r != "" {
				return r
			}
		}
	case *syntax.CStyleLoop:
		return firstReason(arithReason(n.Init), arithReason(n.Cond), arithReason(n.Post))
	case *syntax.ArrayElem:
		return arithReason(n.Index)
	case *syntax.BinaryTest:
		if n.Op >= syntax.TsEql && n.Op <= syntax.TsGtr { // -eq ... -gt evaluate arithmetic
			x, _ := n.X.(*syntax.Word)
			y, _ := n.Y.(*syntax.Word)
			if x == nil || y == nil {
				return arithTaint
			}
			return firstReason(arithReason(x), arithReason(y))
		}
	case *syntax.UnaryTest:
		if n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar {
			w, _ := n.X.(*syntax.Word)
			if v, ok := staticPtr(w); !ok || strings.Contains(v, "[") {
				return "[[ -v ]] with a subscript can run commands"
			}
		}
	}
	return ""
}
