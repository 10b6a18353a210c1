package readonly

import (
	"slices"
	"strings"
	"testing"
)

// FuzzReadOnlyAgainstBash is the differential fuzzer of issue 24: every
// command the classifier calls read-only is run by real bash in a throw-away
// bubblewrap over a tree of hostile file names (sandbox_test.go), and the
// fuzzer fails when it ran a program off the allowlist (the canary among
// them), tried to change a file, or left the tree changed. An input starting
// with 0 is a command as it is; any other input is a list of choices for
// fuzzCommand's grammar of dangerous pieces, so that mutations explore
// combinations of programs, options, globs, expansions, assignments,
// redirections and control bytes. Skipped without bubblewrap or strace.
func FuzzReadOnlyAgainstBash(f *testing.F) {
	ft := sandboxTree(f)
	// The read-only table runs in TestDifferentialSandboxHonest; the hostile
	// corpus costs nothing here unless one turns read-only.
	seeds := slices.Clone(fuzzReadOnlySeeds)
	for c := range hostileBashCommands {
		seeds = append(seeds, c)
	}
	slices.Sort(seeds)
	for _, c := range seeds {
		f.Add(append([]byte{0}, c...))
	}
	for i := 1; i < 40; i++ {
		f.Add([]byte{byte(i), byte(i * 7), byte(i * 13), byte(i * 31), byte(i * 3), byte(i * 5), byte(i * 11), byte(i * 17)})
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		command := fuzzCommand(in)
		if !IsReadOnly(command) {
			return
		}
		if why := ft.run(t, command); why != "" {
			t.Fatalf("read-only %q: %s", command, why)
		}
	})
}

// fuzzReadOnlySeeds are read-only commands that exercise the hostile tree:
// they must do nothing a read-only command must not.
var fuzzReadOnlySeeds = []string{
	"find . -name '*' -type f", "find . -name \"$x\"", "ls -la -- *", "cat -- * 2>/dev/null | wc -l", "grep -r a . | head",
	"rg -n a", "rg --files", "sort -- * | uniq -c", "git status --short", "git log -p -1", "git show --stat HEAD",
	"git log --show-signature -1", "git diff HEAD~1", "git grep -n a", "git branch -a", "wc -l -- *", "du -a .",
	"tree -a", "file -- *", "stat -- * >/dev/null", "sed -n 1p -- *", "jq . f.json", "xargs -0 -a list cat",
	"cat list | xargs -0 ls -d", "head -c 10 -- * 2>&1", "diff -r --no-dereference d d", "od -c f | head -2",
	"for f in *; do echo \"$f\"; done", "printf '%s\\n' *", "echo [+-]* {a,b}", "read -r v < f; echo \"$v\"",
	"test -e ./-exec && echo yes", "[ -n \"$(ls)\" ]", "cat <<EOF\n$(ls)\nEOF", "timeout 1 ls -R", "nice -n 1 ls",
	"stdbuf -o0 cat f", "command -v ls", "env", "ps -o pid= -p $$ >/dev/null", "git ls-files -z", "strings f",
}

// fuzzCommand builds a command from choices: up to three statements joined by
// separators, each with optional prefix, assignments and wrapper, a program of
// the allowlist, arguments from a pool of dangerous pieces (options, hostile
// file names, globs, expansions, scripts), and a redirection.
func fuzzCommand(in []byte) string {
	if len(in) > 0 && in[0] == 0 {
		return string(in[1:])
	}
	g := &choices{b: in}
	var b strings.Builder
	for n := 1 + g.pick(3); n > 0; n-- {
		if g.pick(6) == 0 {
			b.WriteString(fuzzPrefixes[g.pick(len(fuzzPrefixes))])
		}
		if g.pick(5) == 0 {
			b.WriteString(fuzzAssigns[g.pick(len(fuzzAssigns))] + " ")
		}
		if g.pick(6) == 0 {
			b.WriteString(fuzzWrappers[g.pick(len(fuzzWrappers))] + " ")
		}
		prog := fuzzPrograms[g.pick(len(fuzzPrograms))]
		b.WriteString(prog)
		pool := fuzzOptions[prog]
		for k := g.pick(5); k > 0; k-- {
			b.WriteByte(' ')
			var w string
			switch g.pick(4) {
			case 0:
				if len(pool) > 0 {
					w = pool[g.pick(len(pool))]
					break
				}
				fallthrough
			case 1:
				w = fuzzWords[g.pick(len(fuzzWords))]
			case 2:
				w = fuzzNames[g.pick(len(fuzzNames))]
			default:
				w = fuzzGlobs[g.pick(len(fuzzGlobs))]
			}
			switch g.pick(8) {
			case 0:
				w = "'" + w + "'"
			case 1:
				w = "\"" + w + "\""
			case 2:
				w = fuzzBytes[g.pick(len(fuzzBytes))] + w
			}
			b.WriteString(w)
		}
		if g.pick(5) == 0 {
			b.WriteString(" " + fuzzRedirects[g.pick(len(fuzzRedirects))])
		}
		if strings.HasPrefix(b.String(), "for ") && !strings.HasSuffix(b.String(), "done") {
			b.WriteString("; done")
		}
		if n > 1 {
			b.WriteString(fuzzSeparators[g.pick(len(fuzzSeparators))])
		}
	}
	return b.String()
}

// choices reads the fuzzer's bytes as a sequence of choices; past the end,
// every choice is 0.
type choices struct {
	b []byte
	i int
}

func (c *choices) pick(n int) int {
	if c.i >= len(c.b) || n <= 1 {
		return 0
	}
	v := int(c.b[c.i]) % n
	c.i++
	return v
}

var fuzzPrograms = func() []string {
	var names []string
	for n := range programs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}()

var (
	fuzzPrefixes = []string{"set -a; ", "set -f; ", "set -k; ", ": ${x:=-delete}; ", "read x <<< '-delete'; ",
		"for x in -delete; do ", "x='-delete'; ", "p='x -delete'; ", "IFS=,; ", "x='-v a[$(canary)]'; ",
		"GIT_EXTERNAL_DIFF=canary; ", "export x=-delete; ", ": ${GIT_EXTERNAL_DIFF=canary}; ", "shopt -s dotglob; ",
		"set -- x -delete; ", "set -- -v 'a[$(canary)]'; ", "a=(x -delete); ", "read -a a <<< 'x -delete'; "}
	fuzzAssigns = []string{"PATH=.", "GIT_DIR=ng", "BASH_CMDS[cat]=/canarybin/canary", "x=1", "LC_ALL=C", "GIT_PAGER=cat",
		"PAGER=canary", "BASH_ENV=/canarybin/canary", "GLOBIGNORE=x", "HOME=.", "TMPDIR=.", "GIT_EXTERNAL_DIFF=canary"}
	fuzzWrappers   = []string{"xargs", "xargs -0 -a list", "timeout 1", "nice -n 1", "command", "stdbuf -o0", "builtin"}
	fuzzWords      = []string{"-", "--", "-e", "-f", "-o", "-i", "-n", "-r", "-R", "-L", "-z", "-T", "-v", "-x", "+", "$x", "\"$x\"", "$p", "$(echo -delete)", "${x:-+}", "$((1-2))", "~", "$HOME", "\\-exec", "$'\\x2d'delete", "x=y", "{-o,out}", "{a,b}", "a{,b}", "\"{-o,x}\"", "\"$@\"", "\"${a[@]}\"", "\"$*\"", "\"${@:1}\"", "'s/a/b/w pwned'", "'1e canary'", "'r .env'", "1*", "-exec canary ;", "\\;", "{}", "-delete", "-fprint", "pwned"}
	fuzzNames      = append(slices.Clone(hostileNames), "f", "x", "list", "d", "l", "l/secret", "l/../work/f", ".env", "f.json", "README.md", "ng", "canary", "canary", "x.sh", "script.sed", "pats")
	fuzzGlobs      = []string{"*", "-*", "[+-]*", "[+,-]*", "?*", ".*", "*/*", "x*", "[-]*", "--*", "-[eo]*", "+*", "[!a]*", "d/*", "l/*", "*.sed", "[[:punct:]]*"}
	fuzzBytes      = []string{"\r", "\x01", "\x7f", "\t", "\\\n", "\xff", "\x0b", "\u00a0"}
	fuzzRedirects  = []string{"2>/dev/null", "> pwned", ">> pwned", "< f", "{fd}<f", "3>&1", "<<< '-delete'", "&> pwned", ">&2", "<> f"}
	fuzzSeparators = []string{"; ", " && ", " || ", " | ", "\n", " & ", " |& "}
	fuzzOptions    = map[string][]string{
		"find": {"-name", "-exec", "-execdir", "-delete", "-fprint", "-fls", "-ok", "-newer", "-files0-from", "-L", "-follow",
			"-maxdepth", "-print", "-o", "!", "\\(", "\\)", "-type", "-path", "-regex", "+", ";"},
		"sed":  {"-n", "-e", "-f", "-i", "-s", "-z", "--sandbox", "'s/a/b/'", "'s/a/b/w pwned'", "'w pwned'", "'1e canary'", "'r .env'", "p", "1p", "-E"},
		"sort": {"-o", "-T", "--files0-from=list", "--compress-program=canary", "-k", "1", "-u", "-m", "--output=pwned", "-S", "+1"},
		"git": {"status", "log", "diff", "show", "grep", "branch", "tag", "config", "remote", "stash", "-p", "--ext-diff", "-c",
			"core.pager=canary", "--output=pwned", "-Ocanary", "--list", "--global", "--get", "-1", "HEAD", "--no-pager",
			"--show-signature", "--textconv", "--git-dir=ng", "-C", "ng", "show", "-n", "origin"},
		"grep":    {"-r", "-R", "-f", "-e", "a", "--include=*", "-l", "-d", "recurse"},
		"rg":      {"--pre=canary", "--pre", "canary", "-L", "-z", "--files", "--hidden", "-uu", "a", "-g", "--hostname-bin=canary"},
		"xargs":   {"-0", "-a", "list", "-I{}", "-n1", "cat", "ls", "sort", "find", "sed", "git"},
		"jq":      {".", "-n", "--rawfile", "k", "f", "-f", "script.sed", "-L", ".", "'import \"x\" as $x; 1'", "--args", "input"},
		"tree":    {"-o", "pwned", "-R", "-l", "-a", "-L", "1", "--fromfile"},
		"date":    {"-s", "+%s", "-f", "f", "-r", "f", "010100002020"},
		"du":      {"-L", "-a", "-s", "--files0-from=list", "-X", "pats"},
		"ls":      {"-R", "-L", "-la", "-d", "--"},
		"diff":    {"-r", "-l", "--no-dereference", "f", "x", "-u"},
		"env":     {"-S", "canary", "-u", "x", "-i", "x=1", "ls"},
		"file":    {"-C", "-m", "pwned", "-z", "-f", "list"},
		"set":     {"-a", "-o", "allexport", "-e", "-u", "--", "-k", "+o", "history", "-x"},
		"test":    {"-v", "-f", "-n", "!", "=", "a[$(canary)]"},
		"[":       {"-v", "-f", "-n", "]", "a[$(canary)]"},
		"read":    {"-r", "-a", "PATH", "x", "-d", "''"},
		"printf":  {"-v", "PATH", "%s", "x"},
		"uniq":    {"f", "pwned", "-c"},
		"timeout": {"1", "-s", "9", "canary"},
		"command": {"-v", "-p", "canary"},
	}
)
