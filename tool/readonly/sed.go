package readonly

import (
	"fmt"
	"strings"
)

// sedLong are GNU sed's long options; abbreviations resolve against them
// as getopt_long does, so --in cannot sneak past as --in-place.
var sedLong = []string{"quiet", "silent", "regexp-extended", "separate", "null-data", "unbuffered",
	"posix", "debug", "binary", "follow-symlinks", "zero-terminated", "help", "version", "sandbox",
	"expression", "file", "in-place", "line-length"}

// sedArgs is sed's command line taken apart.
type sedArgs struct {
	scripts     []arg // -e values, or the first operand
	scriptFiles []arg // -f values
	operands    []arg // the input files
	sandbox     bool  // --sandbox: sed itself refuses e, r and w
	reason      string
}

// sedParse reads sed's options as GNU sed does.
func sedParse(args []arg) sedArgs {
	var p sedArgs
	dashes := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		value := func(attached string, ok bool) arg {
			if ok {
				return arg{val: attached, known: true, single: true, prefix: attached}
			}
			i++
			if i < len(args) {
				return args[i]
			}
			return arg{}
		}
		switch {
		case dashes || a.known && (v == "-" || !strings.HasPrefix(v, "-")) || !a.known && a.notOption():
			p.operands = append(p.operands, a)
		case !a.known:
			p.reason = "sed has an argument that is not a static word"
			return p
		case v == "--":
			dashes = true
		case strings.HasPrefix(v, "--"):
			opt, val, hasVal := strings.Cut(v[2:], "=")
			switch longMatch(opt, sedLong) {
			case "expression":
				p.scripts = append(p.scripts, value(val, hasVal))
			case "file":
				p.scriptFiles = append(p.scriptFiles, value(val, hasVal))
			case "line-length":
				value(val, hasVal)
			case "in-place":
				p.reason = "sed -i edits files"
				return p
			case "sandbox":
				p.sandbox = true
			case "":
				p.reason = fmt.Sprintf("sed option %s is not allowed", v)
				return p
			}
		default:
		cluster:
			for j := 1; j < len(v); j++ {
				switch c := v[j]; c {
				case 'n', 'E', 'r', 's', 'z', 'u', 'b':
				case 'i':
					p.reason = "sed -i edits files"
					return p
				case 'e', 'f', 'l':
					val := value(v[j+1:], j+1 < len(v))
					switch c {
					case 'e':
						p.scripts = append(p.scripts, val)
					case 'f':
						p.scriptFiles = append(p.scriptFiles, val)
					}
					break cluster
				default:
					p.reason = fmt.Sprintf("sed option -%c is not allowed", c)
					return p
				}
			}
		}
	}
	if len(p.scripts) == 0 && len(p.scriptFiles) == 0 && len(p.operands) > 0 {
		p.scripts, p.operands = p.operands[:1], p.operands[1:]
	}
	return p
}

// sedCheck allows sed without -i whose scripts have no w, W or e command and no
// s///w or s///e flag. A script from -f cannot be read, so it is refused
// unless --sandbox makes sed itself refuse those commands. The script must be
// a static word: a glob such as 1* could expand to a file named "1;w out".
func sedCheck(name string, args []arg) (string, []arg) {
	p := sedParse(args)
	switch {
	case p.reason != "":
		return p.reason, nil
	case p.sandbox:
		return "", nil
	case len(p.scriptFiles) > 0:
		return "sed -f runs a script that cannot be checked", nil
	}
	for _, s := range p.scripts {
		if !s.known {
			return "sed script is not a static word", nil
		}
		if r := sedScriptReason(s.val); r != "" {
			return r, nil
		}
	}
	return "", nil
}

// sedReadFiles returns the files a script's r and R commands read, and false
// when the script is not understood (then what it reads is not known).
func sedReadFiles(script string) ([]string, bool) {
	if !strings.ContainsAny(script, "rR") {
		return nil, true
	}
	var files []string
	for _, gnu := range []bool{true, false} {
		reason, f := sedScan(script, gnu)
		if reason == "sed script is not understood" || strings.HasPrefix(reason, "sed command") {
			return files, false
		}
		files = append(files, f...)
	}
	return files, true
}

// longMatch resolves a possibly abbreviated long option, "" when it is
// unknown or ambiguous.
func longMatch(opt string, names []string) string {
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

// sedScriptReason returns why a sed script may write or run a program. A
// script without the letters w, W and e cannot; otherwise it is scanned twice,
// once as GNU sed reads it and once more naively (delimiters inside [...]
// end a regex, a/i/c text ends at ';'), and must be safe both ways, so that a
// slip in modelling sed's grammar makes the answer stricter, never looser.
func sedScriptReason(script string) string {
	if !strings.ContainsAny(script, "wWe") {
		return ""
	}
	gnu, _ := sedScan(script, true)
	naive, _ := sedScan(script, false)
	return firstReason(gnu, naive)
}

// sedScan returns why script may write or run a program, and the files its r
// and R commands read.
func sedScan(s string, gnu bool) (reason string, files []string) {
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
			return unclear, files
		}
		if skip(" \t"); i < len(s) && s[i] == ',' {
			i++
			if skip(" \t"); !address() {
				return unclear, files
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
			skip(" \t")
			start := i
			until("\n")
			files = append(files, s[start:i])
		case ':', 'b', 't', 'T', 'v':
			// A label ends at a blank too: for "b x w f" GNU sed runs "w f".
			skip(" \t")
			until(" \t\n;")
		case 's', 'y':
			if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
				return unclear, files
			}
			d := s[i]
			i++
			if !delimited(d, c == 's') || !delimited(d, false) {
				return unclear, files
			}
			if c == 's' {
				skip("gpiImM0123456789 \t")
			}
		case 'w', 'W', 'e':
			return "sed script writes files or runs commands", files
		default:
			return fmt.Sprintf("sed command %q is not understood", c), files
		}
	}
	return "", files
}
