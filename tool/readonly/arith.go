package readonly

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

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
