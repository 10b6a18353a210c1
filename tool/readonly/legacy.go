package readonly

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ReadPathsV1 is ReadPaths as it was before Reads: the Turn workflow replays
// histories recorded with it (before its bash-read-targets change), whose
// ResolvePaths activities were scheduled for exactly these paths. Do not
// change it; use Reads.
func ReadPathsV1(command string) (paths []string, dynamic bool) {
	defer func() {
		if recover() != nil {
			paths, dynamic = nil, true
		}
	}()
	if TooBig(command) {
		return nil, true
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return nil, true
	}
	add := func(w *syntax.Word, option bool) {
		v, ok := wordV1(w, true)
		switch {
		case !ok:
			dynamic = true
		case option:
			if p, isPath := optionPath(v); isPath {
				paths = append(paths, p)
			}
		case v != "":
			paths = append(paths, v)
		}
	}
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true
			}
			name, ok := wordV1(n.Args[0], false)
			if !ok {
				dynamic = true
				return true
			}
			name = name[strings.LastIndexByte(name, '/')+1:]
			if noPathProgramsV1[name] {
				return true
			}
			if name == "xargs" {
				dynamic = true
			}
			operands := false
			for _, w := range n.Args[1:] {
				v, ok := wordV1(w, true)
				if ok && v == "--" {
					operands = true
					continue
				}
				add(w, ok && !operands && strings.HasPrefix(v, "-") && v != "-")
			}
		case *syntax.Redirect:
			switch n.Op {
			case syntax.RdrIn, syntax.RdrInOut:
				add(n.Word, false)
			}
		}
		return true
	})
	return paths, dynamic
}

var noPathProgramsV1 = map[string]bool{
	":": true, "true": true, "false": true, "echo": true, "printf": true, "pwd": true, "sleep": true,
	"seq": true, "whoami": true, "id": true, "uname": true, "nproc": true, "hostname": true,
	"basename": true, "dirname": true, "printenv": true, "exit": true, "return": true, "shift": true,
	"break": true, "continue": true, "set": true, "read": true, "type": true, "which": true,
	"test": true, "[": true, "env": true, "ps": true,
}

// wordV1 is the word reading ReadPathsV1 had: with globs, a glob is known as
// its pattern; without, a word starting with a pattern character is not.
func wordV1(w *syntax.Word, globs bool) (string, bool) {
	hasGlob := func(s string) bool {
		if strings.ContainsAny(s, "*?") {
			return true
		}
		i := strings.IndexByte(s, '[')
		return i >= 0 && strings.IndexByte(s[i+1:], ']') >= 0
	}
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, `\{`) && (globs || !hasGlob(l.Value)) {
			return l.Value, true
		}
	}
	var b strings.Builder
	glob := false
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if i := strings.IndexByte(p.Value, '{'); i >= 0 &&
				(strings.Contains(p.Value[i:], ",") || strings.Contains(p.Value[i:], "..")) {
				return "", false
			}
			if !globs && b.Len() == 0 && p.Value != "" && (p.Value[0] == '*' || p.Value[0] == '?' ||
				p.Value[0] == '[' && strings.IndexByte(p.Value[1:], ']') >= 0) {
				return "", false
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
		return "", false
	}
	return v, true
}
