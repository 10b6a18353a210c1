package readonly

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// assignReason allows assignments, which only change the shell's variables,
// except to the variables that make the shell or an allowed program run other
// code (PATH picks what "ls" means, GIT_PAGER runs a program, PS4 is expanded
// under set -x, GIT_TRACE names a file to write).
func assignReason(a *syntax.Assign) string {
	if a.Index != nil {
		if r := arithReason(a.Index); r != "" {
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
			v, ok = static(a.Value)
		}
		if ok && (v == "" || v == "cat") {
			return ""
		}
	}
	if riskyVariable(name) {
		return fmt.Sprintf("setting %s can make programs run other programs", name)
	}
	return ""
}

func riskyVariable(name string) bool {
	switch name {
	case "PATH", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS0", "PS1", "PS2", "PS3", "PS4",
		"PROMPT_COMMAND", "HOME", "XDG_CONFIG_HOME", "EDITOR", "VISUAL", "LESSOPEN", "LESSCLOSE",
		"HISTFILE", "RIPGREP_CONFIG_PATH", "SSH_ASKPASS":
		return true
	}
	for _, prefix := range []string{"LD_", "DYLD_", "BASH_FUNC_", "GIT_"} {
		// GIT_DIR and GIT_WORK_TREE included: they pick a repository whose
		// config can run programs, like --git-dir.
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return strings.HasSuffix(name, "PAGER")
}

// redirectReason allows reading redirections and fd duplication, and output
// only to the devices that are not files.
func redirectReason(r *syntax.Redirect) string {
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

// staticPtr is static for a word that may be absent.
func staticPtr(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	return static(w)
}

// static returns the single value word stands for after quote removal, and
// false when that depends on the run: parameters, command output, arithmetic,
// brace lists ({-o,x} is two words), $'...' escapes, and globs that can match
// a file named like an option: "rg foo *" with a file named --pre=./x.sh in the
// directory runs x.sh, so a word starting with an unquoted *, ? or [ is unknown.
// Other globs (src/*.go, ./*) count as known.
func static(w *syntax.Word) (string, bool) { return wordValue(w, false) }

// wordValue is static; with globs true, a glob word is known as its pattern
// whatever it starts with (for paths, where "*.go" stays in the directory).
func wordValue(w *syntax.Word, globs bool) (string, bool) {
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, `\{`) && (globs || !hasGlob(l.Value)) {
			return l.Value, true // the common case, without allocating
		}
	}
	var b strings.Builder
	glob := false // an unquoted *, ? or [
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if i := strings.IndexByte(p.Value, '{'); i >= 0 &&
				(strings.Contains(p.Value[i:], ",") || strings.Contains(p.Value[i:], "..")) {
				return "", false
			}
			if !globs && b.Len() == 0 && globFirst(p.Value) {
				return "", false // may match a file named like an option
			}
			glob = glob || hasGlob(p.Value)
			unescape(&b, p.Value, "")
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
				unescape(&b, l.Value, "$`\"\\\n")
			}
		default:
			return "", false
		}
	}
	v := b.String()
	if !globs && glob && strings.HasPrefix(v, "-") {
		return "", false // -* expands to the names of files starting with "-"
	}
	return v, true
}

// hasGlob reports whether s has a pattern character: * or ?, or [ with a
// ] after it (a lone [ is literal, as in "[ -f x ]").
func hasGlob(s string) bool {
	if strings.ContainsAny(s, "*?") {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i+1:], ']') >= 0
}

// globFirst reports whether s starts with a pattern character, so that the
// first byte of what it matches is not known.
func globFirst(s string) bool {
	return s != "" && (s[0] == '*' || s[0] == '?' || s[0] == '[' && strings.IndexByte(s[1:], ']') >= 0)
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
