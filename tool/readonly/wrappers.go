package readonly

import (
	"fmt"
	"slices"
	"strings"
)

// wrapper checks a wrapper that runs the command following its options and
// skip further operands (timeout's duration). flagOpts take no value;
// valueOpts take one, separate or attached (-n5, --adjustment=5).
func wrapper(skip int, flagOpts, valueOpts []string) argCheck {
	return func(name string, args []arg) (string, []arg) {
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

// commandCheck allows command -v/-V (a lookup) and command CMD when CMD is
// read-only.
func commandCheck(name string, args []arg) (string, []arg) {
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

// xargsOptions maps xargs' long options to whether they take a value:
// 0 never, 1 only attached (--eof=x), 2 always.
var xargsOptions = map[string]int{
	"null": 0, "no-run-if-empty": 0, "verbose": 0, "interactive": 0, "exit": 0, "open-tty": 0,
	"show-limits": 0, "eof": 1, "replace": 1, "max-lines": 1, "arg-file": 2, "delimiter": 2,
	"max-args": 2, "max-procs": 2, "max-chars": 2, "process-slot-var": 2,
}

// xargsCheck checks the command xargs runs. Its arguments come from input, so
// the command is checked with one more unknown argument: "xargs grep x"
// passes, "xargs sort" does not (the input could say -o file).
func xargsCheck(name string, args []arg) (string, []arg) {
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
			takes, ok := xargsOptions[opt]
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
	inner := []arg{{val: "echo", known: true}}
	if i < len(args) {
		inner = slices.Clone(args[i:])
	}
	return "", append(inner, arg{})
}
