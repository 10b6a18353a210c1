package readonly

import (
	"regexp"
	"strings"
)

// readModels know which arguments of a read-only program name what it reads.
// A program without one goes through reader.generic: all its operands are
// files. The tables err on the side of paths: an option listed as taking a
// value when it does not would hide the operand after it, so only options
// known to take one are listed.
var readModels = map[string]func(r *reader, args []arg){
	"grep": grepReads, "egrep": grepReads, "fgrep": grepReads,
	"rg":     rgReads,
	"find":   findReads,
	"ls":     lsReads,
	"du":     duReads,
	"tree":   treeReads,
	"diff":   diffReads,
	"sort":   sortReads,
	"wc":     listReads(optSpec{}, "", "files0-from"),
	"md5sum": sumReads, "sha1sum": sumReads, "sha256sum": sumReads, "sha512sum": sumReads,
	"file":     fileReads,
	"date":     dateReads,
	"jq":       jqReads,
	"sed":      sedReads,
	"git":      gitReads,
	"cut":      specReads(optSpec{shortVal: "bcdf", longVal: []string{"bytes", "characters", "delimiter", "fields", "output-delimiter"}}),
	"head":     specReads(optSpec{shortVal: "nc", longVal: []string{"lines", "bytes"}}),
	"tail":     specReads(optSpec{shortVal: "ncs", longVal: []string{"lines", "bytes", "pid", "sleep-interval", "max-unchanged-stats"}}),
	"paste":    specReads(optSpec{shortVal: "d", longVal: []string{"delimiters"}}),
	"join":     specReads(optSpec{shortVal: "tjoe12av"}),
	"nl":       specReads(optSpec{shortVal: "bdfhilnsvw", longVal: []string{"body-numbering", "section-delimiter", "footer-numbering", "header-numbering", "line-increment", "join-blank-lines", "number-format", "number-separator", "starting-line-number", "number-width"}}),
	"fold":     specReads(optSpec{shortVal: "w", longVal: []string{"width"}}),
	"od":       specReads(optSpec{shortVal: "AjNSt", longVal: []string{"address-radix", "skip-bytes", "read-bytes", "format", "endian"}}),
	"strings":  stringsReads,
	"uniq":     specReads(optSpec{shortVal: "fsw", longVal: []string{"skip-fields", "skip-chars", "check-chars"}}),
	"stat":     specReads(optSpec{shortVal: "c", longVal: []string{"format", "printf"}}),
	"cmp":      specReads(optSpec{shortVal: "in", longVal: []string{"ignore-initial", "bytes"}}),
	"comm":     specReads(optSpec{longVal: []string{"output-delimiter"}}),
	"realpath": specReads(optSpec{longVal: []string{"relative-to", "relative-base"}}),
}

// stringsReads: binutils' strings also reads options from @FILE, which may
// name more files.
func stringsReads(r *reader, args []arg) {
	_, ops, _ := optSpec{shortVal: "ntesT", longVal: []string{"bytes", "radix", "encoding", "target", "output-separator"}}.scan(args)
	for _, a := range ops {
		r.file(a)
	}
	for _, a := range args {
		if a.known && strings.HasPrefix(a.val, "@") && len(a.val) > 1 {
			r.file(arg{val: a.val[1:], known: true})
			r.dynamic = true
		}
	}
}

// specReads is the model of a program whose operands are all files and whose
// option values are not.
func specReads(spec optSpec) func(*reader, []arg) {
	return func(r *reader, args []arg) {
		_, ops, _ := spec.scan(args)
		for _, a := range ops {
			r.file(a)
		}
	}
}

// listReads is specReads for a program with options that name a file of file
// names (wc --files0-from): what else it reads is only known when it runs.
func listReads(spec optSpec, shorts string, longs ...string) func(*reader, []arg) {
	spec.longVal = append(spec.longVal, longs...)
	spec.shortVal += shorts
	return func(r *reader, args []arg) {
		opts, ops, _ := spec.scan(args)
		for _, v := range values(opts, shorts, longs...) {
			r.file(v)
			r.dynamic = true
		}
		for _, a := range ops {
			r.file(a)
		}
	}
}

// grepOpts are GNU grep's options that take a value.
var grepOpts = optSpec{shortVal: "efmABCdD", longVal: []string{"regexp", "file", "max-count", "after-context",
	"before-context", "context", "directories", "devices", "label", "binary-files", "exclude", "include",
	"exclude-from", "exclude-dir", "group-separator"}}

// grepReads: the first operand is the pattern unless -e or -f gives it; -r
// reads each directory operand (or ".") recursively, dot files included.
func grepReads(r *reader, args []arg) {
	opts, ops, sure := grepOpts.scan(args)
	for _, v := range values(opts, "f", "file", "exclude-from") {
		r.file(v)
	}
	recursive := has(opts, "rR", "recursive", "dereference-recursive")
	for _, v := range values(opts, "d", "directories") {
		recursive = recursive || !v.known || strings.HasPrefix("recurse", v.val)
	}
	if sure && !has(opts, "ef", "regexp", "file") && len(ops) > 0 && ops[0].single {
		ops = ops[1:] // the pattern; a glob there (.*) is the pattern and then files
	}
	r.operands(ops, recursive, true)
}

// operands records the file operands of a program that reads recursive ones
// recursively, and "." when there is none.
func (r *reader) operands(ops []arg, recursive, hidden bool) {
	if len(ops) == 0 && recursive {
		r.targets = append(r.targets, Target{Path: ".", Recursive: true, Hidden: hidden})
	}
	for _, a := range ops {
		r.add(a, Target{Recursive: recursive, Hidden: hidden && recursive})
	}
}

var rgOpts = optSpec{shortVal: "ABCEefgjMmrtTd", longVal: []string{"after-context", "before-context", "color",
	"colors", "context", "context-separator", "dfa-size-limit", "encoding", "engine", "field-context-separator",
	"field-match-separator", "file", "glob", "iglob", "ignore-file", "max-columns", "max-count", "max-depth",
	"max-filesize", "path-separator", "pre", "pre-glob", "regex-size-limit", "regexp", "replace", "sort", "sortr",
	"threads", "type", "type-add", "type-clear", "type-not", "hostname-bin", "hyperlink-format"}}

// rgReads: ripgrep always searches recursively (the working directory when no
// path is given) and skips dot files unless --hidden or -uu; .gitignore is not
// known here, so ignored files count as read.
func rgReads(r *reader, args []arg) {
	opts, ops, sure := rgOpts.scan(args)
	for _, v := range values(opts, "f", "file", "ignore-file") {
		r.file(v)
	}
	unrestricted := 0
	for _, o := range opts {
		if o.is("u", "unrestricted") {
			unrestricted++
		}
	}
	hidden := has(opts, ".", "hidden") || unrestricted >= 2
	if sure && !has(opts, "ef", "regexp", "file", "files", "type-list") && len(ops) > 0 && ops[0].single {
		ops = ops[1:]
	}
	r.operands(ops, true, hidden)
}

// findReads: the starting points before the expression (or "."), read
// recursively, dot files included. A lone -name test limits what is listed.
func findReads(r *reader, args []arg) {
	i := 0
	var starts []arg
	for ; i < len(args); i++ {
		a := args[i]
		if a.known && (strings.HasPrefix(a.val, "-") || a.val == "(" || a.val == "!" || a.val == ",") {
			break
		}
		starts = append(starts, a)
	}
	name, names, complex, depth0, fromList := "", 0, false, false, false
	for ; i < len(args); i++ {
		a := args[i]
		if !a.known {
			continue // a test's value; Classify refuses anything else
		}
		value := arg{}
		if i+1 < len(args) {
			value = args[i+1]
		}
		switch v := a.val; {
		case v == "-name":
			names++
			name = value.val
			if !value.known {
				complex = true
			}
		case v == "-o" || v == "-or" || v == "!" || v == "-not" || v == "," || v == "(" || v == ")":
			complex = true
		case v == "-maxdepth":
			depth0 = value.known && value.val == "0"
		case v == "-files0-from":
			r.file(value)
			r.dynamic, fromList = true, true
		case strings.HasPrefix(v, "-newer") && len(v) == len("-newerXY") && v[len(v)-1] != 't',
			v == "-newer" || v == "-anewer" || v == "-cnewer" || v == "-samefile":
			r.file(value)
		}
	}
	if names != 1 || complex {
		name = ""
	}
	if len(starts) == 0 && !fromList {
		starts = []arg{{val: ".", known: true}}
	}
	for _, a := range starts {
		r.add(a, Target{Recursive: !depth0, Hidden: !depth0, Name: name})
	}
}

var lsOpts = optSpec{shortVal: "ITw", longVal: []string{"ignore", "hide", "tabsize", "width", "block-size",
	"format", "sort", "time", "time-style", "quoting-style", "indicator-style"}}

// lsReads: names, recursively with -R; dot files only with -a or -A.
func lsReads(r *reader, args []arg) {
	opts, ops, _ := lsOpts.scan(args)
	if len(ops) == 0 {
		ops = []arg{{val: ".", known: true}}
	}
	recursive, hidden := has(opts, "R", "recursive"), has(opts, "aA", "all", "almost-all")
	if recursive {
		r.operands(ops, true, hidden)
		return
	}
	for _, a := range ops {
		r.add(a, Target{Lists: !has(opts, "d", "directory"), Hidden: hidden})
	}
}

var duOpts = optSpec{shortVal: "BdXt", longVal: []string{"block-size", "max-depth", "exclude", "exclude-from",
	"files0-from", "threshold", "time-style"}}

// duReads: du walks each operand (or ".") unless -s or a depth of 0 keep its
// output to the operands.
func duReads(r *reader, args []arg) {
	opts, ops, _ := duOpts.scan(args)
	for _, v := range values(opts, "X", "exclude-from") {
		r.file(v)
	}
	for _, v := range values(opts, "", "files0-from") {
		r.file(v)
		r.dynamic = true
	}
	recursive := !has(opts, "s", "summarize")
	for _, v := range values(opts, "d", "max-depth") {
		recursive = recursive && !(v.known && v.val == "0")
	}
	if len(ops) == 0 {
		ops = []arg{{val: ".", known: true}}
	}
	r.operands(ops, recursive, true)
}

var treeOpts = optSpec{shortVal: "LPIHTo", longVal: []string{"charset", "filelimit", "timefmt", "sort", "gitfile",
	"infofile", "hintro", "houtro"}}

// treeReads: tree lists each directory operand (or ".") recursively, dot
// files only with -a; with --fromfile its operands are listings, read as files.
func treeReads(r *reader, args []arg) {
	opts, ops, _ := treeOpts.scan(args)
	for _, v := range values(opts, "", "gitfile", "infofile", "hintro", "houtro") {
		r.file(v)
	}
	if has(opts, "", "fromfile") {
		for _, a := range ops {
			r.file(a)
		}
		return
	}
	if len(ops) == 0 {
		ops = []arg{{val: ".", known: true}}
	}
	r.operands(ops, true, has(opts, "a", "all"))
}

var diffOpts = optSpec{shortVal: "CUxXIFWDSL", longVal: []string{"exclude", "exclude-from", "ignore-matching-lines",
	"show-function-line", "width", "ifdef", "starting-file", "label", "line-format", "old-line-format",
	"new-line-format", "unchanged-line-format", "old-group-format", "new-group-format", "changed-group-format",
	"unchanged-group-format", "from-file", "to-file", "horizon-lines", "tabsize", "palette"}}

// diffReads: both operands (or --from-file/--to-file), recursively with -r.
func diffReads(r *reader, args []arg) {
	opts, ops, _ := diffOpts.scan(args)
	recursive := has(opts, "r", "recursive")
	for _, v := range values(opts, "X", "exclude-from") {
		r.file(v)
	}
	ops = append(ops, values(opts, "", "from-file", "to-file")...)
	for _, a := range ops {
		r.add(a, Target{Recursive: recursive, Hidden: recursive})
	}
}

var sortOpts = optSpec{shortVal: "kStTo", longVal: []string{"key", "buffer-size", "field-separator",
	"temporary-directory", "output", "files0-from", "random-source", "batch-size", "parallel", "compress-program", "sort"}}

func sortReads(r *reader, args []arg) {
	opts, ops, _ := sortOpts.scan(args)
	for _, v := range values(opts, "", "random-source") {
		r.file(v)
	}
	for _, v := range values(opts, "", "files0-from") {
		r.file(v)
		r.dynamic = true
	}
	for _, a := range ops {
		r.file(a)
	}
}

// sumReads: md5sum -c reads the files its operands list.
func sumReads(r *reader, args []arg) {
	opts, ops, _ := optSpec{}.scan(args)
	r.dynamic = r.dynamic || has(opts, "c", "check")
	for _, a := range ops {
		r.file(a)
	}
}

var fileOpts = optSpec{shortVal: "fFmPe", longVal: []string{"files-from", "separator", "magic-file", "parameter", "exclude", "exclude-quiet"}}

// fileReads: file -f reads the files its list names; -m names magic files
// (a colon-separated list).
func fileReads(r *reader, args []arg) {
	opts, ops, _ := fileOpts.scan(args)
	for _, v := range values(opts, "f", "files-from") {
		r.file(v)
		r.dynamic = true
	}
	for _, v := range values(opts, "m", "magic-file") {
		if v.known && strings.Contains(v.val, ":") {
			for _, p := range strings.Split(v.val, ":") {
				r.file(arg{val: p, known: true})
			}
			continue
		}
		r.file(v)
	}
	for _, a := range ops {
		r.file(a)
	}
}

var dateOpts = optSpec{shortVal: "dfrs", longVal: []string{"date", "file", "reference", "set"}}

// dateReads: date reads only the files of -f and -r; its operand is a format.
func dateReads(r *reader, args []arg) {
	opts, _, _ := dateOpts.scan(args)
	for _, v := range values(opts, "fr", "file", "reference") {
		r.file(v)
	}
}

// jqModules finds the parts of a jq program that read files by name: import
// and include statements, and modulemeta.
var jqModules = regexp.MustCompile(`\b(import|include|modulemeta|get_search_list)\b`)

// jqReads: the first positional argument is the filter (with -f, the file
// holding it); --rawfile and --slurpfile name files; --args and --jsonargs
// make the positional arguments after the filter values. A filter that
// imports modules, one from a file, and -L read files chosen when it runs.
func jqReads(r *reader, args []arg) {
	fromFile, valuesOnly, dashes := false, false, false
	var positional []arg
	for i := 0; i < len(args); i++ {
		a := args[i]
		skip := func(n int) []arg {
			end := min(i+1+n, len(args))
			vals := args[i+1 : end]
			i = end - 1
			return vals
		}
		switch {
		case dashes || !a.known || a.val == "-" || !strings.HasPrefix(a.val, "-"):
			if !a.known && !a.notOption() && !dashes {
				r.dynamic = true
			}
			positional = append(positional, a)
		case a.val == "--":
			dashes = true
		case a.val == "--arg" || a.val == "--argjson":
			skip(2)
		case a.val == "--slurpfile" || a.val == "--rawfile":
			if vals := skip(2); len(vals) == 2 {
				r.file(vals[1])
			} else {
				r.dynamic = true
			}
		case a.val == "--indent":
			skip(1)
		case a.val == "--args" || a.val == "--jsonargs":
			valuesOnly = true
		case a.val == "--from-file":
			fromFile = true
		case a.val == "-L" || a.val == "--library-path" || strings.HasPrefix(a.val, "-L") ||
			strings.HasPrefix(a.val, "--library-path="):
			r.dynamic = true
			if a.val == "-L" || a.val == "--library-path" {
				skip(1)
			}
		case strings.HasPrefix(a.val, "--"):
		default:
			fromFile = fromFile || strings.Contains(a.val[1:], "f")
		}
	}
	if len(positional) == 0 {
		return
	}
	filter, rest := positional[0], positional[1:]
	switch {
	case fromFile:
		r.file(filter)
		r.dynamic = true
	case !filter.single:
		rest = positional // a glob there is the filter and then files
		r.dynamic = true
	case !filter.known || jqModules.MatchString(filter.val):
		r.dynamic = true
	}
	if valuesOnly {
		return
	}
	for _, a := range rest {
		r.file(a)
	}
}

// sedReads: the script is not a file, but its r and R commands name files
// it reads; the other operands are the input files.
func sedReads(r *reader, args []arg) {
	p := sedParse(args)
	for _, f := range p.scriptFiles {
		r.file(f)
		r.dynamic = r.dynamic || !p.sandbox // its r and R commands are not known
	}
	for _, s := range p.scripts {
		if !s.known {
			r.dynamic = true
			continue
		}
		files, ok := sedReadFiles(s.val)
		r.dynamic = r.dynamic || !ok
		for _, f := range files {
			r.file(arg{val: f, known: true})
		}
	}
	for _, a := range p.operands {
		r.file(a)
	}
}

// gitConfigFiles are the files git config reads in each scope. Without a
// scope it reads them all, so git config --list shows the user's global
// configuration, which may hold tokens.
var gitConfigFiles = map[string][]string{
	"global": {"~/.gitconfig", "~/.config/git/config"},
	"system": {"/etc/gitconfig"},
}

// gitReads: every operand may be a path (git diff --no-index a b, git log --
// f), as in the generic model; git config reads the global and system files
// unless a scope says otherwise; git grep --no-index and --untracked search
// the working tree like grep -r.
func gitReads(r *reader, args []arg) {
	i := 0
	for ; i < len(args) && args[i].known && strings.HasPrefix(args[i].val, "-"); i++ {
		if args[i].val == "--namespace" {
			i++
		}
	}
	if i >= len(args) {
		return
	}
	sub, rest := args[i], args[i+1:]
	r.generic(rest)
	// REV:path and :path (the index) name a file's content, read by git show,
	// cat-file, diff and grep from the repository instead of the working tree: a
	// Read deny rule covers them as it covers the file (issue 40 item 6).
	for _, a := range rest {
		if a.known && !strings.HasPrefix(a.val, "-") {
			if _, p, ok := strings.Cut(a.val, ":"); ok && p != "" && !strings.Contains(a.val, "://") {
				r.targets = append(r.targets, Target{Path: strings.TrimPrefix(p, "/")})
			}
		}
	}
	switch {
	case sub.known && sub.val == "config":
		opts, _, _ := optSpec{shortVal: "f", longVal: []string{"file", "blob"}}.scan(rest)
		scoped := false
		for _, o := range opts {
			switch {
			case o.is("", "global"):
				r.files(gitConfigFiles["global"])
				scoped = true
			case o.is("", "system"):
				r.files(gitConfigFiles["system"])
				scoped = true
			case o.is("f", "file"):
				r.file(o.val)
				scoped = true
			case o.is("", "blob", "local", "worktree"):
				scoped = true
			}
		}
		if !scoped {
			r.files(gitConfigFiles["global"])
			r.files(gitConfigFiles["system"])
		}
	case sub.known && sub.val == "grep":
		// Tracked files (dot files too) are searched from the working tree or
		// the index, --no-index and --untracked search untracked ones as well:
		// either way it reads like grep -r.
		r.targets = append(r.targets, Target{Path: ".", Recursive: true, Hidden: true})
	}
}

func (r *reader) files(paths []string) {
	for _, p := range paths {
		r.targets = append(r.targets, Target{Path: p})
	}
}
