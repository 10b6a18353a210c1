package readonly

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
