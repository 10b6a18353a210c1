package readonly

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// fuzzWritePrograms are programs that write whatever their arguments; the
// fuzz oracle keeps its own list rather than trusting the classifier's.
var fuzzWritePrograms = map[string]bool{
	"rm": true, "mv": true, "cp": true, "tee": true, "touch": true, "mkdir": true, "rmdir": true,
	"chmod": true, "chown": true, "chgrp": true, "dd": true, "ln": true, "truncate": true,
	"shred": true, "install": true, "unlink": true, "patch": true,
}

// mustNotBeReadOnly is the fuzz oracle: it reports why command, as parsed,
// cannot be read-only (a write program, a program off the allowlist, a
// computed program name, a redirect to a file, a parse error), or "" when it
// has no such obvious reason. It only looks at plain literal words, where
// quote removal cannot disagree with the classifier.
func mustNotBeReadOnly(command string) string {
	for _, c := range []byte(command) {
		if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
			return "control byte" // bash and the parser may read it differently (\r does)
		}
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return "parse error"
	}
	why := ""
	steers := func(name string) bool {
		for _, p := range []string{"PATH", "GIT_", "BASH", "LD_", "HOME"} {
			if strings.HasPrefix(name, p) && !strings.HasSuffix(name, "PAGER") {
				return true
			}
		}
		return false
	}
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.WordIter:
			if steers(n.Name.Value) {
				why = "loop assigns " + n.Name.Value
			}
		case *syntax.ParamExp:
			if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) && n.Param != nil && steers(n.Param.Value) {
				why = "expansion assigns " + n.Param.Value
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				break
			}
			name, plain := fuzzPlainLit(n.Args[0])
			for _, p := range n.Args[0].Parts {
				switch p.(type) {
				case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst:
					why = "computed program name"
				}
			}
			if !plain {
				break
			}
			if i := strings.LastIndexByte(name, '/'); i >= 0 {
				switch name[:i] {
				case "/bin", "/usr/bin", "/usr/local/bin":
					name = name[i+1:]
				default:
					why = "program by path " + name
				}
			}
			if name == "git" {
				// Options that pick another repository or set config.
				for _, a := range n.Args[1:] {
					v, _ := fuzzPlainLit(a)
					if !strings.HasPrefix(v, "-") {
						break
					}
					if strings.HasPrefix(v, "-c") || strings.HasPrefix(v, "-C") || strings.HasPrefix(v, "--git-dir") ||
						strings.HasPrefix(v, "--work-tree") || strings.HasPrefix(v, "--exec-path=") || strings.HasPrefix(v, "--config-env") {
						why = "git option " + v
					}
				}
			}
			for _, as := range n.Assigns {
				if as.Name != nil && strings.HasPrefix(as.Name.Value, "GIT_") && !strings.HasSuffix(as.Name.Value, "PAGER") {
					why = "assigns " + as.Name.Value
				}
			}
			if fuzzWritePrograms[name] {
				why = "write program " + name
			} else if _, ok := programs[name]; !ok {
				why = "program off the allowlist " + name
			}
		case *syntax.Redirect:
			switch n.Op {
			case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll, syntax.RdrInOut:
				target, plain := fuzzPlainLit(n.Word)
				if !plain && len(n.Word.Parts) == 1 {
					break // quoted: leave it to the table tests
				}
				switch target {
				case "/dev/null", "/dev/stdout", "/dev/stderr":
				default:
					why = "redirect to a file " + target
				}
			}
		}
		return true
	})
	return why
}

// fuzzPlainLit returns the word when it is a single unquoted literal with no
// escapes or brace lists, whose value is then its source text.
func fuzzPlainLit(w *syntax.Word) (string, bool) {
	if w == nil || len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || strings.ContainsAny(l.Value, `\{`) {
		return "", false
	}
	return l.Value, true
}

func FuzzIsReadOnlyBash(f *testing.F) {
	for _, c := range readOnlyBashCommands {
		f.Add(c)
	}
	for c := range notReadOnlyBashCommands {
		f.Add(c)
	}
	for c := range hostileBashCommands {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, command string) {
		reason := classify(command) // not Classify: a panic must fail the test
		readOnly := IsReadOnly(command)
		if readOnly != (reason == "") {
			t.Fatalf("IsReadOnly(%q) = %v but classify reason is %q", command, readOnly, reason)
		}
		if why := mustNotBeReadOnly(command); why != "" && readOnly {
			t.Fatalf("IsReadOnly(%q) = true despite %s", command, why)
		}
	})
}

// TestReadOnlyFuzzOracle keeps the fuzz oracle honest: it must have nothing
// against the commands the table calls read-only, and must catch plain writes.
func TestReadOnlyFuzzOracle(t *testing.T) {
	for _, cmd := range readOnlyBashCommands {
		if why := mustNotBeReadOnly(cmd); why != "" {
			t.Errorf("oracle rejects read-only %q: %s", cmd, why)
		}
	}
	for _, cmd := range []string{"rm x", "ls > f", "ls >> f", "foo", "$X a", "/tmp/ls", "echo $(touch f)", "ls |",
		"echo a\r# $(id)", ": ${PATH:=.}", "for GIT_DIR in x; do :; done"} {
		if mustNotBeReadOnly(cmd) == "" {
			t.Errorf("oracle accepts %q", cmd)
		}
	}
}
