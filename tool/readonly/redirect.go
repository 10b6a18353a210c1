package readonly

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// redirectReason allows reading redirections and fd duplication, and output
// only to the devices that are not files. A {NAME}<file redirection assigns
// the descriptor's number to NAME ("ls {PATH}<f" sets PATH), so it is judged
// as an assignment.
func redirectReason(r *syntax.Redirect) string {
	if r.N != nil && strings.HasPrefix(r.N.Value, "{") {
		name := strings.TrimSuffix(strings.TrimPrefix(r.N.Value, "{"), "}")
		if reason := implicitReason("a {NAME} redirection", name); reason != "" {
			return reason
		}
	}
	switch r.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return ""
	case syntax.DplIn, syntax.DplOut:
		if v, ok := staticPtr(r.Word); ok && isFD(v) {
			return ""
		}
		if r.Op == syntax.DplIn {
			return "duplicates input from something that is not a file descriptor"
		}
		// ">& word" with a non-number word sends stdout and stderr to a file.
	}
	switch v, _ := staticPtr(r.Word); v {
	case "/dev/null", "/dev/stdout", "/dev/stderr":
		return ""
	}
	return "redirects output to a file"
}

func isFD(s string) bool {
	s = strings.TrimSuffix(s, "-") // 3>&1- moves rather than copies
	return s == "" || strings.Trim(s, "0123456789") == ""
}
