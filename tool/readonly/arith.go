package readonly

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// arithTaint is the reason for arithmetic on anything but numbers: Bash
// evaluates a variable's value as an expression, and a value such as
// 'a[$(rm -rf x)]' runs the command, so `x=...; echo $((x))` can write.
const arithTaint = "arithmetic on variables can run commands hidden in their values"

// arithReason accepts arithmetic whose operands are all number literals.
func arithReason(x syntax.ArithmExpr) string {
	switch x := x.(type) {
	case nil:
		return ""
	case *syntax.Word:
		if v, ok := static(x); ok && isNumber(v) {
			return ""
		}
	case *syntax.BinaryArithm:
		if r := arithReason(x.X); r != "" {
			return r
		}
		return arithReason(x.Y)
	case *syntax.UnaryArithm:
		return arithReason(x.X)
	case *syntax.ParenArithm:
		return arithReason(x.X)
	}
	return arithTaint
}

// firstReason returns the first non-empty reason.
func firstReason(reasons ...string) string {
	for _, r := range reasons {
		if r != "" {
			return r
		}
	}
	return ""
}

// isNumber accepts decimal, 0x hex and base#digits literals.
func isNumber(s string) bool {
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

// paramReason rejects the parameter expansions that evaluate a variable's
// value as code: indirection (${!x} with x='a[$(cmd)]'), prompt expansion
// (${x@P}) and subscripts or slices that are arithmetic on variables.
func paramReason(p *syntax.ParamExp) string {
	all := p.Index != nil && isAllIndex(p.Index)
	if p.Excl && p.Names == 0 && !all {
		return "indirect expansion can run commands hidden in a variable"
	}
	if p.Index != nil && !all {
		if r := arithReason(p.Index); r != "" {
			return r
		}
	}
	if p.Slice != nil {
		if r := firstReason(arithReason(p.Slice.Offset), arithReason(p.Slice.Length)); r != "" {
			return r
		}
	}
	if p.Exp != nil && p.Exp.Op == syntax.OtherParamOps {
		if op, ok := staticPtr(p.Exp.Word); !ok || len(op) != 1 || !strings.Contains("QEUuLaAKk", op) {
			return "${var@P} can run commands hidden in a variable"
		}
	}
	return ""
}

func isAllIndex(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	return ok && (w.Lit() == "@" || w.Lit() == "*")
}
