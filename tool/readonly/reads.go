package readonly

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Target is one place a command reads, for the permission check: every path
// a read-only command may read must be inside the working directories, and
// none may be one a Read deny rule covers.
type Target struct {
	// Path is as written: relative to the working directory, absolute, or
	// starting with ~. Quotes are removed, so a Glob's characters may also be
	// quoted ones: reading more into a pattern only makes the check stricter.
	Path string `json:"path"`
	// Glob says Path is a shell pattern (an unquoted *, ? or [...]): it reads
	// every file it matches. Brace lists are expanded into one target each.
	Glob bool `json:"glob,omitempty"`
	// Recursive says everything below Path is read or listed too (grep -r,
	// rg, find, ls -R, du, tree, diff -r).
	Recursive bool `json:"recursive,omitempty"`
	// Hidden, with Recursive or Lists, says names starting with "." below
	// Path are read too; rg without --hidden, ls without -a and tree without
	// -a skip them.
	Hidden bool `json:"hidden,omitempty"`
	// Name, with Recursive, is a pattern every name shown below Path matches
	// (find -name '*.go' lists nothing else); "" means any name.
	Name string `json:"name,omitempty"`
	// Lists says a directory at Path has its entries listed (ls without -R);
	// with Hidden, dot files among them too.
	Lists bool `json:"lists,omitempty"`
}

// Reads returns the targets a command reads and whether some read is only
// known when it runs. It knows the read-only programs: which operands are
// files (not grep's pattern, sed's script, jq's filter or tr's sets), which
// options name files (grep -f, sort --random-source, jq --rawfile, sed's r
// command, git config --global), which read lists of files or scripts whose
// contents decide what else is read (--files0-from, md5sum -c, file -f,
// find -files0-from, jq -f, -L and import, xargs: dynamic), and which read
// recursively. For any other program every static argument is taken for a
// path. dynamic also reports an argument that may name a file but whose value
// is only known when it runs ($HOME/x, $(cmd), "$f") and a command that does
// not parse. It is pure and never panics.
func Reads(command string) (targets []Target, dynamic bool) {
	defer func() {
		if recover() != nil {
			targets, dynamic = nil, true
		}
	}()
	file, reason := parse(command)
	if reason != "" {
		return nil, true
	}
	r := &reader{}
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				argv := make([]arg, len(n.Args))
				for i, w := range n.Args {
					argv[i] = argOf(w)
				}
				r.call(argv, 0)
			}
		case *syntax.Redirect:
			switch n.Op {
			case syntax.RdrIn, syntax.RdrInOut:
				r.file(argOf(n.Word))
			}
		}
		return true
	})
	return r.targets, r.dynamic
}

// ReadPaths returns the Path of every target of Reads, and dynamic.
func ReadPaths(command string) (paths []string, dynamic bool) {
	targets, dynamic := Reads(command)
	for _, t := range targets {
		paths = append(paths, t.Path)
	}
	return paths, dynamic
}

// reader collects what one command reads.
type reader struct {
	targets []Target
	dynamic bool
}

// file records an argument that names a file read as it is.
func (r *reader) file(a arg) { r.add(a, Target{}) }

// add records a target for argument a: its path, or a pattern, or, when its
// value is only known when it runs, dynamic.
func (r *reader) add(a arg, t Target) {
	switch {
	case a.known:
		if a.val == "" {
			return
		}
		t.Path = a.val
	case a.pattern:
		// Brace lists first, as bash does: {a,b}.go is two paths.
		alts, ok := ExpandBraces(BraceRanges(a.val), false)
		if !ok {
			r.dynamic = true
			return
		}
		for _, alt := range alts {
			u := t
			u.Path, u.Glob = alt, strings.ContainsAny(alt, "*?[")
			r.targets = append(r.targets, u)
		}
		return
	default:
		r.dynamic = true
		return
	}
	r.targets = append(r.targets, t)
}

// call records what one simple command reads, following wrappers (timeout,
// nice, xargs...) to the command they run.
func (r *reader) call(argv []arg, depth int) {
	if depth > 8 {
		r.dynamic = true
		return
	}
	name, reason := programName(argv[0])
	switch {
	case !argv[0].known:
		r.dynamic = true // a computed program: it is not read-only anyway
		return
	case reason != "":
		r.generic(argv[1:]) // ./x.sh a: not read-only; its arguments are still paths
		return
	case noPathPrograms[name]:
		return
	}
	if wrapperPrograms[name] {
		if why, inner := programs[name](name, argv[1:]); why == "" {
			if name == "xargs" {
				r.dynamic = true // the files come from its input
				r.xargsFiles(argv[1:])
			}
			if len(inner) > 0 {
				r.call(inner, depth+1)
			}
			return
		}
	}
	if model, ok := readModels[name]; ok {
		model(r, argv[1:])
		return
	}
	r.generic(argv[1:])
}

// noPathPrograms take no file operands: their arguments are text, numbers or
// names, so they never read a file a path argument names. test and [ only check
// that a file exists.
var noPathPrograms = map[string]bool{
	":": true, "true": true, "false": true, "echo": true, "printf": true, "pwd": true, "sleep": true,
	"seq": true, "whoami": true, "id": true, "uname": true, "nproc": true, "hostname": true,
	"basename": true, "dirname": true, "printenv": true, "exit": true, "return": true, "shift": true,
	"break": true, "continue": true, "set": true, "read": true, "type": true, "which": true,
	"test": true, "[": true, "env": true, "ps": true, "tr": true,
}

// wrapperPrograms run the command after their own options.
var wrapperPrograms = map[string]bool{
	"xargs": true, "timeout": true, "nice": true, "stdbuf": true, "command": true, "builtin": true,
}

// generic is the model of a program without one of its own: every operand is
// a path, and so is a path attached to an option (--file=/x, -f/x).
func (r *reader) generic(args []arg) {
	operands := false
	for _, a := range args {
		switch {
		case a.known && a.val == "--" && !operands:
			operands = true
		case a.known && !operands && strings.HasPrefix(a.val, "-") && a.val != "-":
			if p, isPath := optionPath(a.val); isPath {
				r.targets = append(r.targets, Target{Path: p})
			} else if _, v, ok := strings.Cut(a.val, "="); ok && strings.HasPrefix(a.val, "--") && v != "" {
				// --ignore-revs-file=.env: any value may name a file; inside the
				// working directory it asks nothing, and Read deny rules see it.
				r.targets = append(r.targets, Target{Path: v})
			}
		default:
			r.file(a)
		}
	}
}

// xargsFiles records the files xargs reads its arguments from (-a, --arg-file).
func (r *reader) xargsFiles(args []arg) {
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch {
		case !args[i].known || v == "--" || !strings.HasPrefix(v, "-"):
			return
		case v == "-a" || v == "--arg-file":
			if i+1 < len(args) {
				r.file(args[i+1])
			}
			i++
		case strings.HasPrefix(v, "--arg-file="):
			r.file(arg{val: v[len("--arg-file="):], known: true})
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--"):
			if j := strings.IndexByte(v, 'a'); j > 0 && !strings.ContainsAny(v[1:j], "dEILnPs") {
				if j+1 < len(v) {
					r.file(arg{val: v[j+1:], known: true})
				} else if i+1 < len(args) {
					r.file(args[i+1])
					i++
				}
			}
		}
	}
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
