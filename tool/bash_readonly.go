package tool

import (
	"fmt"
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
	if len(command) > roMaxCommand || roTooDeep(command) {
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

// roArithTaint is the reason for arithmetic on anything but numbers: Bash
// evaluates a variable's value as an expression, and a value such as
// 'a[$(rm -rf x)]' runs the command, so `x=...; echo $((x))` can write.
const roArithTaint = "arithmetic on variables can run commands hidden in their values"

// roArithReason accepts arithmetic whose operands are all number literals.
func roArithReason(x syntax.ArithmExpr) string {
	switch x := x.(type) {
	case nil:
		return ""
	case *syntax.Word:
		if v, ok := roStatic(x); ok && roIsNumber(v) {
			return ""
		}
	case *syntax.BinaryArithm:
		if r := roArithReason(x.X); r != "" {
			return r
		}
		return roArithReason(x.Y)
	case *syntax.UnaryArithm:
		return roArithReason(x.X)
	case *syntax.ParenArithm:
		return roArithReason(x.X)
	}
	return roArithTaint
}

// roFirst returns the first non-empty reason.
func roFirst(reasons ...string) string {
	for _, r := range reasons {
		if r != "" {
			return r
		}
	}
	return ""
}

// roIsNumber accepts decimal, 0x hex and base#digits literals.
func roIsNumber(s string) bool {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '#' || c == '@' || c == '_') {
			return false
		}
	}
	return true
}

// roParamReason rejects the parameter expansions that evaluate a variable's
// value as code: indirection (${!x} with x='a[$(cmd)]'), prompt expansion
// (${x@P}) and subscripts or slices that are arithmetic on variables.
func roParamReason(p *syntax.ParamExp) string {
	all := p.Index != nil && roIsAllIndex(p.Index)
	if p.Excl && p.Names == 0 && !all {
		return "indirect expansion can run commands hidden in a variable"
	}
	if p.Index != nil && !all {
		if r := roArithReason(p.Index); r != "" {
			return r
		}
	}
	if p.Slice != nil {
		if r := roFirst(roArithReason(p.Slice.Offset), roArithReason(p.Slice.Length)); r != "" {
			return r
		}
	}
	if p.Exp != nil && p.Exp.Op == syntax.OtherParamOps {
		if op, ok := roStaticPtr(p.Exp.Word); !ok || len(op) != 1 || !strings.Contains("QEUuLaAKk", op) {
			return "${var@P} can run commands hidden in a variable"
		}
	}
	return ""
}

func roIsAllIndex(x syntax.ArithmExpr) bool {
	w, _ := x.(*syntax.Word)
	v, ok := roStaticPtr(w)
	return ok && (v == "@" || v == "*")
}

// roAssignReason allows assignments, which only change the shell's variables,
// except to the variables that make the shell or an allowed program run other
// code (PATH picks what "ls" means, GIT_PAGER runs a program, PS4 is expanded
// under set -x, GIT_TRACE names a file to write).
func roAssignReason(a *syntax.Assign) string {
	if a.Index != nil {
		if r := roArithReason(a.Index); r != "" {
			return r
		}
	}
	if a.Name == nil {
		return ""
	}
	name := a.Name.Value
	if strings.HasSuffix(name, "PAGER") && a.Index == nil && a.Array == nil && !a.Naked {
		// GIT_PAGER=cat is the common way to keep git from paging.
		v, ok := "", true
		if a.Value != nil {
			v, ok = roStatic(a.Value)
		}
		if ok && (v == "" || v == "cat") {
			return ""
		}
	}
	if roRiskyVariable(name) {
		return fmt.Sprintf("setting %s can make programs run other programs", name)
	}
	return ""
}

func roRiskyVariable(name string) bool {
	switch name {
	case "PATH", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS0", "PS1", "PS2", "PS3", "PS4",
		"PROMPT_COMMAND", "HOME", "XDG_CONFIG_HOME", "EDITOR", "VISUAL", "LESSOPEN", "LESSCLOSE",
		"HISTFILE", "RIPGREP_CONFIG_PATH", "SSH_ASKPASS":
		return true
	}
	for _, prefix := range []string{"LD_", "DYLD_", "BASH_FUNC_", "GIT_"} {
		if strings.HasPrefix(name, prefix) && name != "GIT_DIR" && name != "GIT_WORK_TREE" {
			return true
		}
	}
	return strings.HasSuffix(name, "PAGER")
}

// roRedirectReason allows reading redirections and fd duplication, and output
// only to the devices that are not files.
func roRedirectReason(r *syntax.Redirect) string {
	switch r.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return ""
	case syntax.DplIn, syntax.DplOut:
		if v, ok := roStaticPtr(r.Word); ok && roIsFD(v) {
			return ""
		}
		if r.Op == syntax.DplIn {
			return "duplicates input from something that is not a file descriptor"
		}
		// ">& word" with a non-number word sends stdout and stderr to a file.
	}
	switch v, _ := roStaticPtr(r.Word); v {
	case "/dev/null", "/dev/stdout", "/dev/stderr":
		return ""
	}
	return "redirects output to a file"
}

func roIsFD(s string) bool {
	s = strings.TrimSuffix(s, "-") // 3>&1- moves rather than copies
	return s == "" || strings.Trim(s, "0123456789") == ""
}

// roStaticPtr is roStatic for a word that may be absent.
func roStaticPtr(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	return roStatic(w)
}

// roStatic returns the single value word stands for after quote removal, and
// false when that depends on the run: parameters, command output, arithmetic,
// brace lists ({-o,x} is two words), $'...' escapes. Globs count as known: a
// file named like a flag could still be matched by one, a risk accepted here.
func roStatic(w *syntax.Word) (string, bool) {
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, `\{`) {
			return l.Value, true // the common case, without allocating
		}
	}
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if i := strings.IndexByte(p.Value, '{'); i >= 0 &&
				(strings.Contains(p.Value[i:], ",") || strings.Contains(p.Value[i:], "..")) {
				return "", false
			}
			roUnescape(&b, p.Value, "")
		case *syntax.SglQuoted:
			if p.Dollar && strings.Contains(p.Value, `\`) {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				roUnescape(&b, l.Value, "$`\"\\\n")
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// roUnescape writes s with backslash escapes removed; escapable lists the
// characters a backslash escapes, "" meaning all (as outside quotes).
func roUnescape(b *strings.Builder, s, escapable string) {
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
