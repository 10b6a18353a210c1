package readonly

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// noPathPrograms take no file operands: their arguments are text, numbers or
// names, so they never read a file a path argument names. test and [ only check
// that a file exists.
var noPathPrograms = map[string]bool{
	":": true, "true": true, "false": true, "echo": true, "printf": true, "pwd": true, "sleep": true,
	"seq": true, "whoami": true, "id": true, "uname": true, "nproc": true, "hostname": true,
	"basename": true, "dirname": true, "printenv": true, "exit": true, "return": true, "shift": true,
	"break": true, "continue": true, "set": true, "read": true, "type": true, "which": true,
	"test": true, "[": true, "env": true, "ps": true,
}

// ReadPaths returns the paths a command may read: every static argument of
// its simple commands (programs that take no file operands excepted) and the
// files of its input redirections, as written (relative, absolute, or starting
// with ~; option values such as --file=/x and -f/x included). dynamic reports an
// argument that may name a file but whose value is only known when the command
// runs ($HOME/x, $(cmd), "$f"), or input that names files (xargs), or a command
// that does not parse. The permission check uses it to confine read-only
// commands to the working directories, as Claude Code does: "cat /etc/passwd"
// only reads, but reads outside. It is pure and never panics.
func ReadPaths(command string) (paths []string, dynamic bool) {
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
		v, ok := wordValue(w, true)
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
			name, ok := static(n.Args[0])
			if !ok {
				dynamic = true
				return true
			}
			name = name[strings.LastIndexByte(name, '/')+1:]
			if noPathPrograms[name] {
				return true
			}
			if name == "xargs" {
				dynamic = true // the files come from its input
			}
			operands := false
			for _, w := range n.Args[1:] {
				v, ok := wordValue(w, true)
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

// optionPath returns the file an option names in its value: --file=PATH, or a
// short option with the path attached (-f/etc/x, -f~/x, -f../x). Other options
// (-la, --color=auto) name none.
func optionPath(v string) (string, bool) {
	if strings.HasPrefix(v, "--") {
		_, val, ok := strings.Cut(v, "=")
		if ok && looksLikePath(val) {
			return val, true
		}
		return "", false
	}
	if len(v) > 2 && looksLikePath(v[2:]) {
		return v[2:], true
	}
	return "", false
}

// looksLikePath: an absolute path, one from the home directory, or one that climbs.
func looksLikePath(s string) bool {
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || s == ".." ||
		strings.HasPrefix(s, "../") || strings.Contains(s, "/../") || strings.HasSuffix(s, "/..")
}
