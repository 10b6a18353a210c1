package readonly

import (
	"slices"
	"strings"
)

// optSpec describes how a program parses its options, as getopt_long does:
// options may come after operands, "--" ends them, short options cluster
// (-rn), and a short option that takes a value takes the rest of its cluster
// or the next argument.
type optSpec struct {
	shortVal string   // short options that take a value
	longVal  []string // long options that take a value, attached (=) or next
}

// opt is one option as written: name is a letter for a short option, the
// (possibly abbreviated) name after "--" for a long one.
type opt struct {
	name   string
	long   bool
	val    arg
	hasVal bool
}

// scan splits args into options and operands. sure is false when an argument
// might be an option but its value is unknown, or a long option is an
// abbreviation that could take a value: then the caller must not rely on
// which operand is which (every operand is then taken for a file).
func (s optSpec) scan(args []arg) (opts []opt, operands []arg, sure bool) {
	sure = true
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() (arg, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return arg{}, false
		}
		switch {
		case !a.known:
			if !a.notOption() {
				sure = false
			}
			operands = append(operands, a)
		case a.val == "--":
			return opts, append(operands, args[i+1:]...), sure
		case a.val == "-" || !strings.HasPrefix(a.val, "-"):
			operands = append(operands, a)
		case strings.HasPrefix(a.val, "--"):
			name, val, attached := strings.Cut(a.val[2:], "=")
			o := opt{name: name, long: true}
			switch {
			case attached:
				o.val, o.hasVal = arg{val: val, known: true, single: true, prefix: val}, true
			case slices.Contains(s.longVal, name):
				o.val, o.hasVal = next()
			case slices.ContainsFunc(s.longVal, func(l string) bool { return strings.HasPrefix(l, name) }):
				sure = false // --fil may be --file: its value is taken for an operand
			}
			opts = append(opts, o)
		default:
			for j := 1; j < len(a.val); j++ {
				o := opt{name: a.val[j : j+1]}
				if strings.IndexByte(s.shortVal, a.val[j]) >= 0 {
					if j+1 < len(a.val) {
						v := a.val[j+1:]
						o.val, o.hasVal = arg{val: v, known: true, single: true, prefix: v}, true
					} else {
						o.val, o.hasVal = next()
					}
					opts = append(opts, o)
					break
				}
				opts = append(opts, o)
			}
		}
	}
	return opts, operands, sure
}

// has reports whether opts hold one of the short options in shorts or a long
// option that abbreviates one of longs.
func has(opts []opt, shorts string, longs ...string) bool {
	return slices.ContainsFunc(opts, func(o opt) bool { return o.is(shorts, longs...) })
}

// is reports whether o is one of the short options in shorts or abbreviates
// one of longs (getopt_long accepts --recur for --recursive).
func (o opt) is(shorts string, longs ...string) bool {
	if !o.long {
		return strings.Contains(shorts, o.name)
	}
	return o.name != "" && slices.ContainsFunc(longs, func(l string) bool { return strings.HasPrefix(l, o.name) })
}

// values returns the values of the options in opts that are one of shorts or
// longs.
func values(opts []opt, shorts string, longs ...string) []arg {
	var out []arg
	for _, o := range opts {
		if o.is(shorts, longs...) {
			if o.hasVal {
				out = append(out, o.val)
			} else {
				out = append(out, arg{}) // the value is missing or not known: dynamic
			}
		}
	}
	return out
}
