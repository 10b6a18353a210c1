package readonly

import (
	"fmt"
	"slices"
	"strings"
)

func uniqCheck(name string, args []arg) (string, []arg) {
	if r := flagReason(name, args, ""); r != "" {
		return r, nil
	}
	if len(operandsOf(args, "fsw", "skip-fields", "skip-chars", "check-chars")) > 1 {
		return "uniq writes its second operand", nil
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
// [ -v 'a[$(rm x)]' ] runs rm.
func testCheck(name string, args []arg) (string, []arg) {
	for i, a := range args {
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

// readCheck allows read into plain names; a name with a subscript is evaluated
// (read 'a[$(rm x)]' runs rm).
func readCheck(name string, args []arg) (string, []arg) {
	for _, a := range args {
		if !a.known || strings.Contains(a.val, "[") {
			return "read into a computed or subscripted name is not read-only", nil
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
		if !a.known && (i == 0 || !slices.Contains(findTests, args[i-1].val)) {
			return "find has an argument that is not a static word", nil
		}
		if a.known && slices.Contains(findWriters, a.val) {
			return fmt.Sprintf("find %s is not read-only", a.val), nil
		}
	}
	return "", nil
}
