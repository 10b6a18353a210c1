package readonly

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// byteTemplates put a byte (%s) where the shell's reading of it decides what
// runs: in and between words, in quotes, comments, expansions, here-documents,
// loops and tests. p and q are commands that print their arguments. (Not
// p ${x:-"a b"}: the interpreter splits the quoted default, bash does not.)
var byteTemplates = []string{
	"p a%sb", "p a %s b", "p a%s# x", "p 'a%sb'", "p \"a%sb\"", "p a\\%sb", "p $'a'%sb", "p a;%s q b",
	"p a\n%s q b", "p ${x:-a%sb}", "p a%s|q b", "p a%s&& q b", "p a%s;q b", "%sp a", "p a%s", "p a%s\nq b",
	"p a %s# q b", "p <<E\nx%s\nE\nq b", "p $(q a%sb)", "x=a%sb; p $x", "p a%s$(q b)", "p `q a%sb`",
	"p a%s{b,c}", "p {a%s,b}", "p a %s\\\nq", "x='a%sb'; p \"$x\"", "x='a%sb'; p $x", "p \"${x:-a%sb}\"",
	"x=aab; p ${x/a/%s}", "x=a%sb; p ${x/%s/c}", "x=a%sb; p \"${x#a}\"", "case a%sb in a%sb) p y;; *) p n;; esac",
	"case ab in a%sb) p y;; *) p n;; esac", "[[ a%sb == a%sb ]] && p y || p n", "[[ ab == a%sb ]] && p y || p n",
	"[[ a%sb == a?b ]] && p y || p n", "p a%s=b", "a%s=b p", "p >/dev/null%s q", "p \\%s", "p \"\\%s\"",
	"p a%s\\", "f%s(){ p x; }; p y", "p x%s*", "x=$'a%sb'; p \"$x\"", "p \"$(p a%sb)\"", "p a%s#b q",
	"p #%s\nq", "p \"a\"%s\"b\"", "x=(a%sb c); p \"${x[@]}\"", "x=ab; p ${x:+a%sb}",
	"read -r v <<< 'a%sb'; p \"$v\"", "p <<'E'\na%sb\nE\n", "p <<E%s\nx\nE%s\nq", "for i in a%sb c; do p $i; done",
	"if p a%s; then q b; fi", "p a%s(q b)", "{ p a%s; }", "(p a%s)",
}

// TestMismatchBytesRefused: a command holding a byte that bash and the parser
// may read differently is never read-only, and Parse refuses it, so the
// permission rules do not match it by its parsed parts either.
func TestMismatchBytesRefused(t *testing.T) {
	var refused []string
	for c := 1; c < 0x100; c++ {
		if c >= 0x20 && c < 0x7f || c == '\t' || c == '\n' {
			continue
		}
		refused = append(refused, string([]byte{byte(c)}))
	}
	refused = append(refused, "\r\n", "\xe2\x82", "\xed\xa0\x80") // a cut character, a surrogate
	for _, b := range refused {
		for _, tmpl := range []string{"ls%s", "echo a%sb", "echo '%s'", "cat f # %s", "echo \"%s\" $(id)"} {
			cmd := strings.ReplaceAll(tmpl, "%s", b)
			if ok, _ := Classify(cmd); ok {
				t.Errorf("Classify(%q) = read-only; the byte %q must be refused", cmd, b)
			}
			if _, err := Parse(cmd); err == nil {
				t.Errorf("Parse(%q) succeeded; the byte %q must be refused", cmd, b)
			}
		}
	}
	for _, ok := range []string{"echo a\tb", "echo a\nls", "echo été", "echo a\u00a0b", "echo \u2028", "echo \ufeff"} {
		if _, err := Parse(ok); err != nil {
			t.Errorf("Parse(%q): %v", ok, err)
		}
	}
}

// TestParserAgreesWithBash compares, for the bytes outside printable ASCII
// that Mismatch lets through (tab, newline, multibyte characters), what bash
// runs with what mvdan.cc/sh's own interpreter runs from the parser's syntax
// tree. A difference is a byte the classifier must refuse. For the bytes it
// refuses, the differences are logged: measured with bash 5.2, only \r (read
// as a blank by the parser, kept in the word by bash) changes what runs; the
// other control bytes are refused as a precaution. (Printable ASCII is not
// compared: there the interpreter's own gaps, not the parser, differ.)
func TestParserAgreesWithBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	allowed := []string{"\t", "\n", "é", "\u00a0", "\u2028", "\u3000", "\u200b", "\ufeff", "\ufffd", "中", "\U0001f600"}
	var refused []string
	for c := 1; c < 0x20; c++ {
		if c != '\t' && c != '\n' {
			refused = append(refused, string([]byte{byte(c)}))
		}
	}
	refused = append(refused, "\x7f")
	for _, b := range append(allowed, refused...) {
		allow := Mismatch(b) == ""
		if allow != slices.Contains(allowed, b) {
			t.Fatalf("Mismatch(%q) = %q", b, Mismatch(b))
		}
		var scripts []string
		for _, tmpl := range byteTemplates {
			scripts = append(scripts, strings.ReplaceAll(tmpl, "%s", b))
		}
		dir := t.TempDir()
		got := bashRuns(t, bash, dir, scripts)
		for i, src := range scripts {
			want, parsed := interpRuns(dir, src)
			if !parsed {
				continue // the parser refuses it: not read-only, whatever bash does
			}
			switch {
			case got[i] == want:
			case allow:
				t.Errorf("byte %q in %q: bash runs %q, the parser's tree %q", b, src, got[i], want)
			default:
				t.Logf("refused byte %q in %q: bash runs %q, the parser's tree %q", b, src, got[i], want)
			}
		}
	}
}

const printArgs = `for a; do printf '[%s]' "$a"; done; printf '\n'`

// bashRuns runs each script with bash (through eval, each on its own) and
// returns the commands it ran, one line per command, sorted.
func bashRuns(t *testing.T, bash, dir string, scripts []string) []string {
	t.Helper()
	prog := "p(){ printf '[p]'; " + printArgs + "; }; q(){ printf '[q]'; " + printArgs + "; }\n" +
		"command_not_found_handle(){ " + printArgs + "; }\n" +
		"for s; do printf '\\n=== \\n'; (eval \"$s\"; wait) </dev/null; done; printf '\\n=== \\n'"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, append([]string{"--norc", "--noprofile", "-c", prog, "bash"}, scripts...)...)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"}
	cmd.Dir = dir
	out, _ := cmd.Output()
	parts := strings.Split(string(out), "\n=== \n")
	if len(parts) != len(scripts)+2 {
		t.Fatalf("bash printed %d sections for %d scripts:\n%s", len(parts), len(scripts), out)
	}
	runs := parts[1 : len(parts)-1]
	for i := range runs {
		runs[i] = sortedLines(runs[i])
	}
	return runs
}

// interpRuns runs src with mvdan.cc/sh's interpreter, every command printing
// its arguments instead of running, and reports whether it parsed.
func interpRuns(dir, src string) (string, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return "", false
	}
	var out bytes.Buffer
	r, err := interp.New(interp.StdIO(nil, &out, &out), interp.Env(nil), interp.Dir(dir), interp.ExecHandlers(func(interp.ExecHandlerFunc) interp.ExecHandlerFunc {
		return func(ctx context.Context, args []string) error {
			w := interp.HandlerCtx(ctx).Stdout
			for _, a := range args {
				fmt.Fprintf(w, "[%s]", a)
			}
			fmt.Fprint(w, "\n")
			return nil
		}
	}))
	if err != nil {
		return "", false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = r.Run(ctx, f)
	return sortedLines(out.String()), true
}

func sortedLines(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}
