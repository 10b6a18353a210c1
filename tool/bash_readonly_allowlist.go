package tool

import (
	"fmt"
	"slices"
	"strings"
)

// readOnlyPrograms is the Bash read-only allowlist: every program or builtin
// that IsReadOnlyBash accepts, with the check its arguments must pass. A
// program that is not here is not read-only. Deliberately absent: awk (its
// system(), print > file and pipes to commands write and run anything), less
// and more (they run shell commands), and every interpreter.
var readOnlyPrograms = map[string]roCheck{
	// Builtins and utilities that write nothing, whatever their arguments.
	":": roAny, "true": roAny, "false": roAny, "echo": roAny, "pwd": roAny, "type": roAny,
	"which": roAny, "sleep": roAny, "exit": roAny, "return": roAny, "shift": roAny,
	"break": roAny, "continue": roAny, "ls": roAny, "cat": roAny, "head": roAny, "tail": roAny,
	"wc": roAny, "grep": roAny, "egrep": roAny, "fgrep": roAny, "stat": roAny, "du": roAny,
	"df": roAny, "cut": roAny, "tr": roAny, "diff": roAny, "cmp": roAny, "comm": roAny,
	"basename": roAny, "dirname": roAny, "realpath": roAny, "readlink": roAny, "jq": roAny,
	"whoami": roAny, "id": roAny, "uname": roAny, "printenv": roAny, "nproc": roAny, "ps": roAny,
	"tac": roAny, "rev": roAny, "nl": roAny, "paste": roAny, "join": roAny, "column": roAny,
	"fold": roAny, "seq": roAny, "od": roAny, "strings": roAny, "cksum": roAny, "md5sum": roAny,
	"sha1sum": roAny, "sha256sum": roAny, "sha512sum": roAny,

	// Programs with an option or operand that writes, runs a program or
	// evaluates code.
	"sort":     roDeny("o", "output", "compress-program"),
	"file":     roDeny("C", "compile"),
	"tree":     roDeny("oR"), // -R writes 00Tree.html into each directory
	"rg":       roDeny("", "pre", "hostname-bin"),
	"uniq":     roUniq,
	"date":     roDate,
	"hostname": roHostname,
	"printf":   roPrintf,
	"test":     roTest,
	"[":        roTest,
	"set":      roSet,
	"read":     roRead,
	"env":      roEnv,
	"find":     roFind,
	"sed":      roSed,
	"git":      roGit,

	// Wrappers: read-only when the command they run is.
	"xargs":   roXargs,
	"timeout": roWrapper(1, []string{"--foreground", "--preserve-status", "-v", "--verbose"}, []string{"-s", "--signal", "-k", "--kill-after"}),
	"nice":    roWrapper(0, nil, []string{"-n", "--adjustment"}),
	"stdbuf":  roWrapper(0, nil, []string{"-i", "-o", "-e", "--input", "--output", "--error"}),
	"command": roCommand,
	"builtin": roWrapper(0, nil, nil),
}

// roNotReadOnly gives the reason for programs people expect to pass or to
// know about; "" means "<name> is not read-only".
var roNotReadOnly = map[string]string{
	"cd": "cd changes the working directory", "pushd": "pushd changes the working directory",
	"popd": "popd changes the working directory", "eval": "eval runs code that cannot be checked",
	"exec": "exec replaces the shell", "source": "source runs a script that cannot be checked",
	".": "source runs a script that cannot be checked", "awk": "awk can run commands and write files",
	"gawk": "awk can run commands and write files", "mawk": "awk can run commands and write files",
	"sh": "sh runs code that cannot be checked", "bash": "bash runs code that cannot be checked",
	"sudo": "sudo runs a program as another user", "rm": "", "mv": "", "cp": "", "tee": "",
	"touch": "", "mkdir": "", "rmdir": "", "chmod": "", "chown": "", "ln": "", "dd": "",
	"truncate": "", "kill": "", "trap": "", "alias": "",
}

// roArg is one word of a simple command: its value, known says whether that
// value is fixed before the command runs.
type roArg struct {
	val   string
	known bool
}

// roCheck decides whether a program called with args (its name excluded) only
// reads: a non-empty reason says why not. Wrappers such as xargs return the
// command they run as inner, which is checked in turn.
type roCheck func(name string, args []roArg) (reason string, inner []roArg)

// roArgvReason checks a simple command, following wrappers to what they run.
func roArgvReason(argv []roArg) string {
	for depth := 0; len(argv) > 0; depth++ {
		if depth > 8 {
			return "too many nested wrapper commands"
		}
		name, reason := roProgramName(argv[0])
		if reason != "" {
			return reason
		}
		check, ok := readOnlyPrograms[name]
		if !ok {
			if r, known := roNotReadOnly[name]; known {
				return roOr(r, name+" is not read-only")
			}
			return fmt.Sprintf("unknown program %q", name)
		}
		if reason, argv = check(name, argv[1:]); reason != "" {
			return reason
		}
	}
	return ""
}

// roProgramName resolves the program a command word runs. A path is accepted
// only in the system directories, where "ls" means the real ls.
func roProgramName(a roArg) (string, string) {
	if !a.known {
		return "", "command name is not a static word"
	}
	i := strings.LastIndexByte(a.val, '/')
	if i < 0 {
		return a.val, ""
	}
	switch a.val[:i] {
	case "/bin", "/usr/bin", "/usr/local/bin":
		return a.val[i+1:], ""
	}
	return "", fmt.Sprintf("runs %q by path", a.val)
}

func roOr(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

func roAny(string, []roArg) (string, []roArg) { return "", nil }

func roDeny(shorts string, longs ...string) roCheck {
	return func(name string, args []roArg) (string, []roArg) {
		return roFlagReason(name, args, shorts, longs...), nil
	}
}

// roFlagReason reports a denied option in args, or an argument before "--"
// whose value is unknown (it could expand to a denied option). Long options
// match by prefix because getopt_long and git take abbreviations (--out for
// --output); short ones are found inside clusters like -mo.
func roFlagReason(name string, args []roArg, shorts string, longs ...string) string {
	for _, a := range args {
		if !a.known {
			return name + " has an argument that is not a static word"
		}
		v := a.val
		switch {
		case v == "--":
			return ""
		case strings.HasPrefix(v, "--"):
			opt, _, _ := strings.Cut(v[2:], "=")
			for _, l := range longs {
				if strings.HasPrefix(l, opt) {
					return fmt.Sprintf("%s --%s is not read-only", name, l)
				}
			}
		case len(v) > 1 && v[0] == '-' && shorts != "":
			if i := strings.IndexAny(v[1:], shorts); i >= 0 {
				return fmt.Sprintf("%s -%c is not read-only", name, v[1+i])
			}
		}
	}
	return ""
}

// roOperands returns the operands in args, skipping options and the separate
// values of the short (shortVal) and long (longVal) options that take one.
func roOperands(args []roArg, shortVal string, longVal ...string) []roArg {
	var ops []roArg
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch {
		case !args[i].known || v == "-" || !strings.HasPrefix(v, "-"):
			ops = append(ops, args[i])
		case v == "--":
			return append(ops, args[i+1:]...)
		case strings.HasPrefix(v, "--"):
			if !strings.Contains(v, "=") && slices.Contains(longVal, v[2:]) {
				i++
			}
		default:
			// In a cluster the first option taking a value ends it; the value
			// is the next argument when nothing follows that option.
			if j := strings.IndexAny(v[1:], shortVal); j >= 0 && j == len(v)-2 {
				i++
			}
		}
	}
	return ops
}

func roUniq(name string, args []roArg) (string, []roArg) {
	if r := roFlagReason(name, args, ""); r != "" {
		return r, nil
	}
	if len(roOperands(args, "fsw", "skip-fields", "skip-chars", "check-chars")) > 1 {
		return "uniq writes its second operand", nil
	}
	return "", nil
}

func roDate(name string, args []roArg) (string, []roArg) {
	if r := roFlagReason(name, args, "s", "set"); r != "" {
		return r, nil
	}
	for _, op := range roOperands(args, "dfr", "date", "file", "reference") {
		if !op.known || !strings.HasPrefix(op.val, "+") {
			return "date with an operand sets the clock", nil
		}
	}
	return "", nil
}

func roHostname(name string, args []roArg) (string, []roArg) {
	if r := roFlagReason(name, args, "Fb", "file", "boot"); r != "" {
		return r, nil
	}
	if len(roOperands(args, "")) > 0 {
		return "hostname with a name sets it", nil
	}
	return "", nil
}

// roPrintf rejects -v, which assigns through a name that may hold a
// subscript Bash evaluates.
func roPrintf(name string, args []roArg) (string, []roArg) {
	if len(args) > 0 && (!args[0].known || strings.HasPrefix(args[0].val, "-v")) {
		return "printf -v or a computed format is not read-only", nil
	}
	return "", nil
}

// roTest rejects -v and -R on a name with a subscript: Bash evaluates it, so
// [ -v 'a[$(rm x)]' ] runs rm.
func roTest(name string, args []roArg) (string, []roArg) {
	for i, a := range args {
		if a.known && (a.val == "-v" || a.val == "-R") {
			if i+1 >= len(args) || !args[i+1].known || strings.Contains(args[i+1].val, "[") {
				return name + " -v with a subscript can run commands", nil
			}
		}
	}
	return "", nil
}

// roSet allows the shell options a script sets for itself and positional
// parameters, but not options such as history that write files.
func roSet(name string, args []roArg) (string, []roArg) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.known:
			return "set has an argument that is not a static word", nil
		case a.val == "--" || a.val == "-" || a.val == "" || !strings.ContainsRune("-+", rune(a.val[0])):
			return "", nil // the rest are positional parameters
		case strings.Trim(a.val[1:], "aeEuxvfCnBbhTo") != "":
			return fmt.Sprintf("set %s is not allowed", a.val), nil
		case strings.Contains(a.val, "o") && i+1 < len(args):
			i++
			switch args[i].val {
			case "errexit", "nounset", "pipefail", "xtrace", "verbose", "noglob", "noclobber", "noexec":
			default:
				return fmt.Sprintf("set -o %s is not allowed", args[i].val), nil
			}
		}
	}
	return "", nil
}

// roRead allows read into plain names; a name with a subscript is evaluated
// (read 'a[$(rm x)]' runs rm).
func roRead(name string, args []roArg) (string, []roArg) {
	for _, a := range args {
		if !a.known || strings.Contains(a.val, "[") {
			return "read into a computed or subscripted name is not read-only", nil
		}
	}
	return "", nil
}

// roEnv allows env only to print the environment, never to run a command.
func roEnv(name string, args []roArg) (string, []roArg) {
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch {
		case !args[i].known:
			return "env has an argument that is not a static word", nil
		case v == "-0" || v == "--null" || v == "-i" || v == "--ignore-environment" || v == "-":
		case v == "-u" || v == "--unset":
			i++
		case strings.HasPrefix(v, "--unset=") || strings.HasPrefix(v, "-u"):
		case strings.Contains(v, "=") && !strings.HasPrefix(v, "-"):
		default:
			return "env runs a program", nil
		}
	}
	return "", nil
}

// roWrapper checks a wrapper that runs the command following its options and
// skip further operands (timeout's duration). flagOpts take no value;
// valueOpts take one, separate or attached (-n5, --adjustment=5).
func roWrapper(skip int, flagOpts, valueOpts []string) roCheck {
	return func(name string, args []roArg) (string, []roArg) {
		i := 0
	options:
		for ; i < len(args); i++ {
			a := args[i]
			switch {
			case !a.known:
				return name + " has an argument that is not a static word", nil
			case a.val == "--":
				i++
				break options
			case a.val == "-" || !strings.HasPrefix(a.val, "-"):
				break options
			case slices.Contains(flagOpts, a.val):
			case slices.Contains(valueOpts, a.val):
				i++
			default:
				if !slices.ContainsFunc(valueOpts, func(o string) bool {
					return len(o) == 2 && strings.HasPrefix(a.val, o) || strings.HasPrefix(a.val, o+"=")
				}) {
					return fmt.Sprintf("%s option %s is not allowed", name, a.val), nil
				}
			}
		}
		if i+skip >= len(args) {
			return "", nil
		}
		return "", args[i+skip:]
	}
}

// roCommand allows command -v/-V (a lookup) and command CMD when CMD is
// read-only.
func roCommand(name string, args []roArg) (string, []roArg) {
	for i, a := range args {
		switch {
		case !a.known:
			return "command has an argument that is not a static word", nil
		case a.val == "--":
			return "", args[i+1:]
		case a.val == "-" || !strings.HasPrefix(a.val, "-"):
			return "", args[i:]
		case strings.Trim(a.val[1:], "pvV") != "":
			return fmt.Sprintf("command option %s is not allowed", a.val), nil
		case strings.ContainsAny(a.val, "vV"):
			return "", nil
		}
	}
	return "", nil
}

// roXargsOptions maps xargs' long options to whether they take a value:
// 0 never, 1 only attached (--eof=x), 2 always.
var roXargsOptions = map[string]int{
	"null": 0, "no-run-if-empty": 0, "verbose": 0, "interactive": 0, "exit": 0, "open-tty": 0,
	"show-limits": 0, "eof": 1, "replace": 1, "max-lines": 1, "arg-file": 2, "delimiter": 2,
	"max-args": 2, "max-procs": 2, "max-chars": 2, "process-slot-var": 2,
}

// roXargs checks the command xargs runs. Its arguments come from input, so
// the command is checked with one more unknown argument: "xargs grep x"
// passes, "xargs sort" does not (the input could say -o file).
func roXargs(name string, args []roArg) (string, []roArg) {
	i := 0
options:
	for ; i < len(args); i++ {
		v := args[i].val
		switch {
		case !args[i].known:
			return "xargs has an argument that is not a static word", nil
		case v == "--":
			i++
			break options
		case v == "-" || !strings.HasPrefix(v, "-"):
			break options
		case strings.HasPrefix(v, "--"):
			opt, _, hasValue := strings.Cut(v[2:], "=")
			takes, ok := roXargsOptions[opt]
			if !ok || takes == 0 && hasValue {
				return fmt.Sprintf("xargs option %s is not allowed", v), nil
			}
			if takes == 2 && !hasValue {
				i++
			}
		default:
		cluster:
			for j := 1; j < len(v); j++ {
				switch c := v[j]; {
				case strings.IndexByte("0rtpxo", c) >= 0:
				case strings.IndexByte("adEILnPs", c) >= 0:
					if j == len(v)-1 {
						i++
					}
					break cluster
				case strings.IndexByte("eil", c) >= 0:
					break cluster
				default:
					return fmt.Sprintf("xargs option -%c is not allowed", c), nil
				}
			}
		}
	}
	inner := []roArg{{val: "echo", known: true}}
	if i < len(args) {
		inner = slices.Clone(args[i:])
	}
	return "", append(inner, roArg{})
}

// roFindWriters are the find actions that delete, write files or run
// programs.
var roFindWriters = []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}

// roFindTests take a value that is never read as an action, so it may be
// unknown (find . -name "$pattern").
var roFindTests = []string{"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex",
	"-iregex", "-lname", "-ilname", "-newer", "-type", "-xtype", "-size", "-user", "-group", "-perm",
	"-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-maxdepth", "-mindepth", "-samefile"}

func roFind(name string, args []roArg) (string, []roArg) {
	for i, a := range args {
		if !a.known && (i == 0 || !slices.Contains(roFindTests, args[i-1].val)) {
			return "find has an argument that is not a static word", nil
		}
		if a.known && slices.Contains(roFindWriters, a.val) {
			return fmt.Sprintf("find %s is not read-only", a.val), nil
		}
	}
	return "", nil
}

// roGitGlobalFlags are the git options before the subcommand that neither
// run programs nor write (-c is absent: -c core.pager=... runs anything).
var roGitGlobalFlags = []string{"--no-pager", "-P", "-p", "--paginate", "--bare", "--no-replace-objects",
	"--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs",
	"--no-optional-locks", "--no-advice"}

// roGitSubcommands are the read-only git subcommands, each with its check.
// They all deny --output, which log, show and diff use to write a file.
var roGitSubcommands = map[string]func(sub string, args []roArg) string{
	"status": roGitFlags, "log": roGitFlags, "diff": roGitFlags, "show": roGitFlags,
	"blame": roGitFlags, "rev-parse": roGitFlags, "ls-files": roGitFlags, "ls-tree": roGitFlags,
	"cat-file": roGitFlags, "describe": roGitFlags, "shortlog": roGitFlags, "rev-list": roGitFlags,
	"merge-base": roGitFlags, "show-ref": roGitFlags, "version": roGitFlags,
	"grep": func(sub string, args []roArg) string {
		return roFlagReason(sub, args, "O", "open-files-in-pager", "output") // -O runs a program on the matches
	},
	"branch": roGitListing("dDmMcCftu", "l", "delete", "move", "copy", "force", "track", "no-track",
		"set-upstream", "set-upstream-to", "unset-upstream", "edit-description", "create-reflog", "recurse-submodules"),
	"tag": roGitListing("adfsumFe", "ln", "annotate", "delete", "force", "sign", "local-user",
		"message", "file", "edit", "create-reflog", "cleanup", "trailer"),
	"remote":   roGitRemote,
	"config":   roGitConfig,
	"stash":    roGitSubcommand(false, "list", "show"),
	"worktree": roGitSubcommand(false, "list"),
	"reflog":   roGitSubcommand(true, "show"),
}

// roGit checks git's global options, then the subcommand.
func roGit(name string, args []roArg) (string, []roArg) {
	i := 0
	for ; i < len(args); i++ {
		v := args[i].val
		switch {
		case !args[i].known:
			return "git has an argument that is not a static word", nil
		case !strings.HasPrefix(v, "-"):
			sub := "git " + v
			check, ok := roGitSubcommands[v]
			if !ok {
				return sub + " is not read-only", nil
			}
			return check(sub, args[i+1:]), nil
		case v == "--version":
			return "", nil
		case v == "-C" || v == "--git-dir" || v == "--work-tree" || v == "--namespace":
			i++ // the value names a directory, so it may be anything
		case strings.HasPrefix(v, "--git-dir=") || strings.HasPrefix(v, "--work-tree=") ||
			strings.HasPrefix(v, "--namespace=") || slices.Contains(roGitGlobalFlags, v):
		default:
			return fmt.Sprintf("git option %s is not allowed", v), nil
		}
	}
	return "git without a subcommand is not read-only", nil
}

func roGitFlags(sub string, args []roArg) string {
	return roFlagReason(sub, args, "", "output")
}

// roGitListing allows branch and tag only in list mode: with no operands, or
// with an option that implies --list (then operands are patterns, not names
// of refs to create).
func roGitListing(denyShort, listShort string, denyLong ...string) func(string, []roArg) string {
	listLong := []string{"list", "contains", "no-contains", "merged", "no-merged", "points-at"}
	return func(sub string, args []roArg) string {
		if r := roFlagReason(sub, args, denyShort, denyLong...); r != "" {
			return r
		}
		list, operands := false, false
		for i, a := range args {
			v := a.val
			if v == "--" {
				operands = operands || i+1 < len(args)
				break
			}
			switch {
			case strings.HasPrefix(v, "--"):
				opt, _, _ := strings.Cut(v[2:], "=")
				list = list || slices.Contains(listLong, opt)
			case len(v) > 1 && v[0] == '-':
				list = list || strings.ContainsAny(v[1:], listShort)
			default:
				operands = true
			}
		}
		if operands && !list {
			return sub + " with a name is not read-only"
		}
		return ""
	}
}

// roGitRemote allows listing remotes and the show and get-url subcommands.
func roGitRemote(sub string, args []roArg) string {
	for _, a := range args {
		switch {
		case !a.known:
			return sub + " has an argument that is not a static word"
		case a.val == "-v" || a.val == "--verbose":
		case a.val == "show" || a.val == "get-url":
			return ""
		default:
			return fmt.Sprintf("%s %s is not read-only", sub, a.val)
		}
	}
	return ""
}

// roGitConfig allows git config only in a get or list mode.
func roGitConfig(sub string, args []roArg) string {
	if r := roFlagReason(sub, args, "e", "add", "unset", "unset-all", "replace-all",
		"rename-section", "remove-section", "edit"); r != "" {
		return r
	}
	for _, a := range args {
		switch a.val {
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list":
			return ""
		}
	}
	if len(args) > 0 && (args[0].val == "get" || args[0].val == "list") {
		return ""
	}
	// A lone section.key reads it; subcommands such as "edit" have no dot.
	if ops := roOperands(args, ""); len(ops) == 1 && strings.Contains(ops[0].val, ".") && len(ops) == len(args) {
		return ""
	}
	return sub + " without --get or --list is not read-only"
}

// roGitSubcommand allows only the listed sub-subcommands (git worktree
// list). bare says whether the command is also read-only when its first
// argument is an option or absent: git reflog means git reflog show, but git
// stash alone saves a stash.
func roGitSubcommand(bare bool, allowed ...string) func(string, []roArg) string {
	return func(sub string, args []roArg) string {
		if bare && (len(args) == 0 || args[0].known && strings.HasPrefix(args[0].val, "-")) {
			return roGitFlags(sub, args)
		}
		if len(args) == 0 || !args[0].known || !slices.Contains(allowed, args[0].val) {
			return sub + " is not read-only unless it only lists"
		}
		return roGitFlags(sub, args[1:])
	}
}

// roSedLong are GNU sed's long options; abbreviations resolve against them
// as getopt_long does, so --in cannot sneak past as --in-place.
var roSedLong = []string{"quiet", "silent", "regexp-extended", "separate", "null-data", "unbuffered",
	"posix", "debug", "binary", "follow-symlinks", "zero-terminated", "help", "version", "sandbox",
	"expression", "file", "in-place", "line-length"}

// roSed allows sed without -i whose scripts have no w, W or e command and no
// s///w or s///e flag. A script from -f cannot be read, so it is refused
// unless --sandbox makes sed itself refuse those commands.
func roSed(name string, args []roArg) (string, []roArg) {
	var scripts, operands []roArg
	sandbox, fromFile, dashes := false, false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		value := func(attached string, ok bool) roArg {
			if ok {
				return roArg{val: attached, known: true}
			}
			i++
			if i < len(args) {
				return args[i]
			}
			return roArg{}
		}
		switch {
		case dashes || a.known && (v == "-" || !strings.HasPrefix(v, "-")):
			operands = append(operands, a)
		case !a.known:
			return "sed has an argument that is not a static word", nil
		case v == "--":
			dashes = true
		case strings.HasPrefix(v, "--"):
			opt, val, hasVal := strings.Cut(v[2:], "=")
			switch roLongMatch(opt, roSedLong) {
			case "expression":
				scripts = append(scripts, value(val, hasVal))
			case "file":
				fromFile = true
				value(val, hasVal)
			case "line-length":
				value(val, hasVal)
			case "in-place":
				return "sed -i edits files", nil
			case "sandbox":
				sandbox = true
			case "":
				return fmt.Sprintf("sed option %s is not allowed", v), nil
			}
		default:
		cluster:
			for j := 1; j < len(v); j++ {
				switch c := v[j]; c {
				case 'n', 'E', 'r', 's', 'z', 'u', 'b':
				case 'i':
					return "sed -i edits files", nil
				case 'e', 'f', 'l':
					val := value(v[j+1:], j+1 < len(v))
					if c == 'e' {
						scripts = append(scripts, val)
					}
					fromFile = fromFile || c == 'f'
					break cluster
				default:
					return fmt.Sprintf("sed option -%c is not allowed", c), nil
				}
			}
		}
	}
	if len(scripts) == 0 && !fromFile && len(operands) > 0 {
		scripts = operands[:1]
	}
	if sandbox {
		return "", nil
	}
	if fromFile {
		return "sed -f runs a script that cannot be checked", nil
	}
	for _, s := range scripts {
		if !s.known {
			return "sed script is not a static word", nil
		}
		if r := roSedScriptReason(s.val); r != "" {
			return r, nil
		}
	}
	return "", nil
}

// roLongMatch resolves a possibly abbreviated long option, "" when it is
// unknown or ambiguous.
func roLongMatch(opt string, names []string) string {
	match := ""
	for _, n := range names {
		if n == opt {
			return n
		}
		if strings.HasPrefix(n, opt) {
			if match != "" {
				return ""
			}
			match = n
		}
	}
	return match
}

// roSedScriptReason returns why a sed script may write or run a program. A
// script without the letters w, W and e cannot; otherwise it is scanned twice,
// once as GNU sed reads it and once more naively (delimiters inside [...]
// end a regex, a/i/c text ends at ';'), and must be safe both ways, so that a
// slip in modelling sed's grammar makes the answer stricter, never looser.
func roSedScriptReason(script string) string {
	if !strings.ContainsAny(script, "wWe") {
		return ""
	}
	return roFirst(roSedScan(script, true), roSedScan(script, false))
}

func roSedScan(s string, gnu bool) string {
	const unclear = "sed script is not understood"
	i := 0
	skip := func(chars string) {
		for i < len(s) && strings.IndexByte(chars, s[i]) >= 0 {
			i++
		}
	}
	until := func(stops string) {
		for i < len(s) && strings.IndexByte(stops, s[i]) < 0 {
			if s[i] == '\\' {
				i++
			}
			i++
		}
	}
	// bracket moves past a bracket expression whose '[' is just behind i.
	// A ']' first is literal, [:class:] may contain ']', and a backslash
	// escapes nothing, as in GNU sed ("s/[\\]/x/" is complete).
	bracket := func() bool {
		skip("^")
		if i < len(s) && s[i] == ']' {
			i++
		}
		for i < len(s) {
			switch {
			case s[i] == ']':
				i++
				return true
			case s[i] == '[' && i+1 < len(s) && strings.IndexByte(":.=", s[i+1]) >= 0:
				end := strings.Index(s[i+2:], string(s[i+1])+"]")
				if end < 0 {
					return false
				}
				i += end + 4
			default:
				i++
			}
		}
		return false
	}
	// delimited moves past text ended by an unescaped d; in a GNU regex a
	// bracket expression may contain d.
	delimited := func(d byte, regex bool) bool {
		for i < len(s) {
			c := s[i]
			i++
			switch {
			case c == '\\':
				i++
			case c == d:
				return true
			case c == '[' && regex && gnu:
				if !bracket() {
					return false
				}
			}
		}
		return false
	}
	address := func() bool {
		switch {
		case i < len(s) && strings.IndexByte("0123456789+~", s[i]) >= 0:
			skip("0123456789+~")
		case i < len(s) && s[i] == '$':
			i++
		case i+1 < len(s) && (s[i] == '/' || s[i] == '\\'):
			if s[i] == '\\' {
				i++
			}
			d := s[i]
			i++
			if !delimited(d, true) {
				return false
			}
			skip("IM")
		}
		return true
	}
	for i < len(s) {
		if skip(" \t\n;{}!"); i >= len(s) {
			break
		}
		if s[i] == '#' {
			until("\n")
			continue
		}
		if !address() {
			return unclear
		}
		if skip(" \t"); i < len(s) && s[i] == ',' {
			i++
			if skip(" \t"); !address() {
				return unclear
			}
		}
		if skip(" \t!"); i >= len(s) {
			break
		}
		c := s[i]
		i++
		switch c {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'L', 'q', 'Q':
			skip(" \t0123456789")
		case 'a', 'i', 'c':
			if gnu {
				until("\n")
			} else {
				until("\n;")
			}
		case 'r', 'R':
			until("\n")
		case ':', 'b', 't', 'T', 'v':
			// A label ends at a blank too: for "b x w f" GNU sed runs "w f".
			skip(" \t")
			until(" \t\n;")
		case 's', 'y':
			if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
				return unclear
			}
			d := s[i]
			i++
			if !delimited(d, c == 's') || !delimited(d, false) {
				return unclear
			}
			if c == 's' {
				skip("gpiImM0123456789 \t")
			}
		case 'w', 'W', 'e':
			return "sed script writes files or runs commands"
		default:
			return fmt.Sprintf("sed command %q is not understood", c)
		}
	}
	return ""
}
