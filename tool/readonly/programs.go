package readonly

import (
	"fmt"
	"slices"
	"strings"
)

// uniqCheck: uniq's options are harmless, but a second operand is the file it
// writes.
func uniqCheck(name string, args []arg) (string, []arg) {
	ops := operandsOf(args, "fsw", "skip-fields", "skip-chars", "check-chars")
	if len(ops) > 1 || len(ops) == 1 && !ops[0].single {
		return "uniq writes its second operand", nil // a glob may expand to two
	}
	return "", nil
}

func dateCheck(name string, args []arg) (string, []arg) {
	if r := flagReason(name, args, "s", "set"); r != "" {
		return r, nil
	}
	for _, op := range operandsOf(args, "dfr", "date", "file", "reference") {
		if !op.known || !strings.HasPrefix(op.val, "+") {
			return "date with an operand sets the clock", nil
		}
	}
	return "", nil
}

func hostnameCheck(name string, args []arg) (string, []arg) {
	if r := flagReason(name, args, "Fb", "file", "boot"); r != "" {
		return r, nil
	}
	if len(operandsOf(args, "")) > 0 {
		return "hostname with a name sets it", nil
	}
	return "", nil
}

// printfCheck rejects -v, which assigns through a name that may hold a
// subscript Bash evaluates.
func printfCheck(name string, args []arg) (string, []arg) {
	if len(args) > 0 && (!args[0].known || strings.HasPrefix(args[0].val, "-v")) {
		return "printf -v or a computed format is not read-only", nil
	}
	return "", nil
}

// testCheck rejects -v and -R on a name with a subscript: Bash evaluates it, so
// [ -v 'a[$(rm x)]' ] runs rm. A word that may become several ([ $x ], [ * ])
// can become -v and such a name.
func testCheck(name string, args []arg) (string, []arg) {
	for i, a := range args {
		if !a.single {
			return name + " has an argument that may expand to several words, such as -v and a name with a subscript", nil
		}
		if a.known && (a.val == "-v" || a.val == "-R") {
			if i+1 >= len(args) || !args[i+1].known || strings.Contains(args[i+1].val, "[") {
				return name + " -v with a subscript can run commands", nil
			}
		}
	}
	return "", nil
}

// setCheck allows the shell options a script sets for itself and positional
// parameters, but not options such as history that write files.
func setCheck(name string, args []arg) (string, []arg) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.known:
			return "set has an argument that is not a static word", nil
		case a.val == "--" || a.val == "-" || a.val == "" || !strings.ContainsRune("-+", rune(a.val[0])):
			return "", nil // the rest are positional parameters
		case strings.Trim(a.val[1:], "eEuxvfCnBbhTo") != "":
			// -a (allexport) exports every later assignment; -k takes
			// NAME=value words anywhere as assignments.
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

// readCheck allows read into plain names; a name with a subscript is evaluated
// (read 'a[$(rm x)]' runs rm), and read assigns, so the names are judged as
// assignments (read PATH).
func readCheck(name string, args []arg) (string, []arg) {
	for _, a := range args {
		if !a.known || strings.Contains(a.val, "[") {
			return "read into a computed or subscripted name is not read-only", nil
		}
		if validName(a.val) {
			if r := implicitReason("read", a.val); r != "" {
				return r, nil
			}
		}
	}
	return "", nil
}

// envCheck allows env only to print the environment, never to run a command.
func envCheck(name string, args []arg) (string, []arg) {
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

// findWriters are the find actions that delete, write files or run
// programs.
var findWriters = []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}

// findTests take a value that is never read as an action, so it may be
// unknown (find . -name "$pattern").
var findTests = []string{"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex",
	"-iregex", "-lname", "-ilname", "-newer", "-type", "-xtype", "-size", "-user", "-group", "-perm",
	"-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-maxdepth", "-mindepth", "-samefile"}

func findCheck(name string, args []arg) (string, []arg) {
	for i, a := range args {
		if a.known {
			switch {
			case slices.Contains(findWriters, a.val):
				return fmt.Sprintf("find %s is not read-only", a.val), nil
			case a.val == "-L" || a.val == "-follow":
				return fmt.Sprintf("find %s follows symbolic links, which may lead out of the working directory", a.val), nil
			}
			continue
		}
		// The value of a test is one word, so find . -name "$p" is fine; a
		// word that may become several (-name $p, -name -*) may become an
		// action: p='x -delete'.
		if i > 0 && args[i-1].known && slices.Contains(findTests, args[i-1].val) && a.single {
			continue
		}
		if a.notOption() {
			continue // a starting point such as src/*, or a pattern no action can come from
		}
		return "find has an argument that is not a static word", nil
	}
	return "", nil
}

// Unknown arguments pass the checks below: whatever option they turn out to
// be, these programs only read, and what they read is then unknown (Reads
// says dynamic), which the permission check treats as reading outside.

// mentions reports whether some known option in args holds one of the bytes
// in chars: the checks below scan options only then.
func mentions(args []arg, chars string) bool {
	for _, a := range args {
		if a.known && strings.HasPrefix(a.val, "-") && strings.ContainsAny(a.val, chars) {
			return true
		}
	}
	return false
}

func grepCheck(name string, args []arg) (string, []arg) {
	if !mentions(args, "Rd") {
		return "", nil
	}
	if opts, _, _ := grepOpts.scan(args); has(opts, "R", "dereference-recursive") {
		return name + " -R follows symbolic links, which may lead out of the working directory", nil
	}
	return "", nil
}

func lsCheck(name string, args []arg) (string, []arg) {
	if !mentions(args, "Ld") {
		return "", nil
	}
	if opts, _, _ := lsOpts.scan(args); has(opts, "R", "recursive") && has(opts, "L", "dereference") {
		return "ls -RL follows symbolic links, which may lead out of the working directory", nil
	}
	return "", nil
}

func duCheck(name string, args []arg) (string, []arg) {
	if !mentions(args, "Ld") {
		return "", nil
	}
	if opts, _, _ := duOpts.scan(args); has(opts, "L", "dereference") {
		return "du -L follows symbolic links, which may lead out of the working directory", nil
	}
	return "", nil
}

// diffCheck: diff -r follows the symbolic links it finds unless told not to,
// and -l pipes its output through pr.
func diffCheck(name string, args []arg) (string, []arg) {
	if !mentions(args, "rlp") {
		return "", nil
	}
	opts, _, _ := diffOpts.scan(args)
	switch {
	case has(opts, "l", "paginate"):
		return "diff -l runs pr", nil
	case has(opts, "r", "recursive") && !has(opts, "", "no-dereference"):
		return "diff -r follows symbolic links, which may lead out of the working directory (add --no-dereference)", nil
	}
	return "", nil
}

// psValueOptions are ps options whose value is the next argument.
var psValueOptions = []string{"-p", "-q", "-o", "-O", "-u", "-U", "-g", "-G", "-t", "-C", "-s", "-k",
	"--pid", "--ppid", "--sid", "--user", "--group", "--format", "--sort", "--quick-pid"}

// psCheck refuses BSD-style e (ps eww, ps auxe), which prints the environment
// of every process it lists: the worker's, with its secrets, among them.
func psCheck(name string, args []arg) (string, []arg) {
	for i, a := range args {
		switch {
		case !a.known:
			// ps -p "$pid" or -p $$: one word, the value of an option.
			value := i > 0 && args[i-1].known && slices.Contains(psValueOptions, args[i-1].val)
			if !a.notOption() && !(value && a.single) {
				return "ps has an argument that is not a static word", nil
			}
		case !strings.HasPrefix(a.val, "-") && strings.ContainsRune(a.val, 'e') && strings.Trim(a.val, "0123456789,") != "":
			// A BSD option cluster; PID lists (ps 1,2) hold no letters.
			return "ps e shows the environment of processes", nil
		}
	}
	return "", nil
}
