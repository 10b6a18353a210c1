package readonly

import (
	"fmt"
	"slices"
	"strings"
)

// programs is the Bash read-only allowlist: every program or builtin
// that IsReadOnly accepts, with the check its arguments must pass. A
// program that is not here is not read-only. Deliberately absent: awk (its
// system(), print > file and pipes to commands write and run anything), less
// and more (they run shell commands), and every interpreter.
var programs = map[string]argCheck{
	// Builtins and utilities that write nothing, whatever their arguments.
	":": anyArgs, "true": anyArgs, "false": anyArgs, "echo": anyArgs, "pwd": anyArgs, "type": anyArgs,
	"which": anyArgs, "sleep": anyArgs, "exit": anyArgs, "return": anyArgs, "shift": anyArgs,
	"break": anyArgs, "continue": anyArgs, "cat": anyArgs, "head": anyArgs, "tail": anyArgs,
	"wc": anyArgs, "stat": anyArgs,
	"df": anyArgs, "cut": anyArgs, "tr": anyArgs, "cmp": anyArgs, "comm": anyArgs,
	"basename": anyArgs, "dirname": anyArgs, "realpath": anyArgs, "readlink": anyArgs, "jq": anyArgs,
	"whoami": anyArgs, "id": anyArgs, "uname": anyArgs, "printenv": anyArgs, "nproc": anyArgs, "ps": psCheck,
	"tac": anyArgs, "rev": anyArgs, "nl": anyArgs, "paste": anyArgs, "join": anyArgs, "column": anyArgs,
	"fold": anyArgs, "seq": anyArgs, "od": anyArgs, "strings": anyArgs, "cksum": anyArgs, "md5sum": anyArgs,
	"sha1sum": anyArgs, "sha256sum": anyArgs, "sha512sum": anyArgs,

	// Programs with an option or operand that writes, runs a program or
	// evaluates code.
	"sort": denyFlags("oT", "output", "compress-program", "temporary-directory"),
	"file": denyFlags("CzZ", "compile", "uncompress", "uncompress-noreport"), // -z runs decompressors
	"tree": denyFlags("oRl"),                                                 // -R writes 00Tree.html into each directory
	"rg":   denyFlags("Lz", "pre", "hostname-bin", "follow", "search-zip"),

	// Programs that read recursively: not when they follow the symbolic
	// links they find, which may lead out of the working directory.
	"grep":     grepCheck,
	"egrep":    grepCheck,
	"fgrep":    grepCheck,
	"ls":       lsCheck,
	"du":       duCheck,
	"diff":     diffCheck,
	"uniq":     uniqCheck,
	"date":     dateCheck,
	"hostname": hostnameCheck,
	"printf":   printfCheck,
	"test":     testCheck,
	"[":        testCheck,
	"set":      setCheck,
	"read":     readCheck,
	"env":      envCheck,
	"find":     findCheck,
	"sed":      sedCheck,
	"git":      gitCheck,

	// Wrappers: read-only when the command they run is.
	"xargs":   xargsCheck,
	"timeout": wrapper(1, []string{"--foreground", "--preserve-status", "-v", "--verbose"}, []string{"-s", "--signal", "-k", "--kill-after"}),
	"nice":    wrapper(0, nil, []string{"-n", "--adjustment"}),
	"stdbuf":  wrapper(0, nil, []string{"-i", "-o", "-e", "--input", "--output", "--error"}),
	"command": commandCheck,
	"builtin": wrapper(0, nil, nil),
}

// notReadOnly gives the reason for programs people expect to pass or to
// know about; "" means "<name> is not read-only".
var notReadOnly = map[string]string{
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

// argCheck decides whether a program called with args (its name excluded) only
// reads: a non-empty reason says why not. Wrappers such as xargs return the
// command they run as inner, which is checked in turn.
type argCheck func(name string, args []arg) (reason string, inner []arg)

// argvReason checks a simple command, following wrappers to what they run.
func argvReason(argv []arg) string {
	for depth := 0; len(argv) > 0; depth++ {
		if depth > 8 {
			return "too many nested wrapper commands"
		}
		name, reason := programName(argv[0])
		if reason != "" {
			return reason
		}
		check, ok := programs[name]
		if !ok {
			if r, known := notReadOnly[name]; known {
				return orElse(r, name+" is not read-only")
			}
			return fmt.Sprintf("unknown program %q", name)
		}
		if reason, argv = check(name, argv[1:]); reason != "" {
			return reason
		}
	}
	return ""
}

// programName resolves the program a command word runs. A path is accepted
// only in the system directories, where "ls" means the real ls.
func programName(a arg) (string, string) {
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

func orElse(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

func anyArgs(string, []arg) (string, []arg) { return "", nil }

func denyFlags(shorts string, longs ...string) argCheck {
	return func(name string, args []arg) (string, []arg) {
		return flagReason(name, args, shorts, longs...), nil
	}
}

// flagReason reports a denied option in args, or an argument before "--"
// whose value is unknown (it could expand to a denied option). Long options
// match by prefix because getopt_long and git take abbreviations (--out for
// --output); short ones are found inside clusters like -mo.
func flagReason(name string, args []arg, shorts string, longs ...string) string {
	for _, a := range args {
		if !a.known {
			if a.notOption() {
				continue // a pattern or field that cannot be an option: src/*.go
			}
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

// operandsOf returns the operands in args, skipping options and the separate
// values of the short (shortVal) and long (longVal) options that take one.
func operandsOf(args []arg, shortVal string, longVal ...string) []arg {
	var ops []arg
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
