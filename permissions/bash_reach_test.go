package permissions_test

import (
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool/readonly"
)

// A Read deny rule covers what a Bash command may read, not only the paths it
// names: a pattern that may match the file, a recursive read of a directory
// holding it, the files options and scripts name (issue 24, class 6). Paths
// only the command knows, or that lead into the state directory, ask.
func TestBashReadsUnderReadDenyRules(t *testing.T) {
	rule := func(s string) permissions.Rule {
		r, err := permissions.ParseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	pol := func(mode permissions.Mode) permissions.Policy {
		return permissions.Policy{Mode: mode, WorkDir: "/proj", HomeDir: "/home/u",
			Deny:            []permissions.Rule{rule("Read(./.env)"), rule("Read(./secrets/**)"), rule("Read(~/.aws)")},
			ReadOnlyCommand: readonly.IsReadOnly, BashPaths: readonly.ReadPaths}
	}
	// With only Read(./.env), the usual searches run: rg skips dot files,
	// find -name lists only what matches.
	envOnly := pol(permissions.Default)
	envOnly.Deny = envOnly.Deny[:1]
	for _, cmd := range []string{"rg KEY", "find . -name '*.go'", "ls -R", "tree", "cat *", "grep -rn KEY src *.go"} {
		if d := permissions.Decide(permissions.Request{Tool: permissions.ToolBash, Command: cmd, ReadOnly: readonly.IsReadOnly(cmd)}, envOnly); d.Behavior != permissions.Allow {
			t.Errorf("%q under Read(./.env) alone: %v %q; want allow", cmd, d.Behavior, d.Reason)
		}
	}
	for _, c := range []struct {
		cmd  string
		mode permissions.Mode
		want permissions.Behavior
		why  string
	}{
		// Patterns that may match .env ask, in every mode that asks; plan
		// mode denies, as it asks nobody.
		{"cat .en?", permissions.Default, permissions.Ask, "Read(./.env)"},
		{"cat .en?", permissions.BypassPermissions, permissions.Ask, "the pattern .en? may match it"},
		{"cat .en?", permissions.Plan, permissions.Deny, "Read(./.env)"},
		{"cat .env*", permissions.AcceptEdits, permissions.Ask, "Read(./.env)"},
		{"cat .[e]nv", permissions.Default, permissions.Ask, "Read(./.env)"},
		{"cat .*", permissions.Default, permissions.Ask, "Read(./.env)"},
		{"cat {.e,x}nv", permissions.Default, permissions.Deny, "names /proj/.env"}, // a brace list is two words
		{"cat .{e..f}nv", permissions.Default, permissions.Ask, "Read(./.env)"},
		{"head ./s*/key.pem", permissions.Default, permissions.Ask, "Read(./secrets/**)"},
		{"cat ~/.a*/credentials", permissions.Default, permissions.Ask, "Read(~/.aws)"},
		// * does not match a dot file in bash; patterns elsewhere are fine.
		{"cat *", permissions.Default, permissions.Allow, ""},
		{"wc -l *.go src/*.go", permissions.Default, permissions.Allow, ""},
		{"cat .git*", permissions.Default, permissions.Allow, ""},
		// Recursive reads of a directory holding a denied file.
		{"grep -r KEY .", permissions.Default, permissions.Ask, "it reads everything under ."},
		{"grep -r KEY", permissions.BypassPermissions, permissions.Ask, "Read(./.env)"},
		{"grep -rn KEY src", permissions.Default, permissions.Allow, ""},
		{"timeout 5 grep -r KEY .", permissions.Default, permissions.Ask, "Read(./.env)"},
		{"rg KEY", permissions.Default, permissions.Ask, "Read(./secrets/**)"}, // rg skips .env (hidden), not secrets/
		{"rg KEY src", permissions.Default, permissions.Allow, ""},
		{"find . -type f", permissions.Default, permissions.Ask, "Read(./.env)"},
		{"find . -name '*.go'", permissions.Default, permissions.Ask, "Read(./secrets/**)"}, // it would list secrets/x.go
		{"find src -name '*.go'", permissions.Default, permissions.Allow, ""},
		{"find . -name '.e*'", permissions.Default, permissions.Ask, "Read(./.env)"},
		{"find . -name '*.pem' -o -name x", permissions.Default, permissions.Ask, "Read(./"},
		{"ls -la", permissions.Default, permissions.Allow, ""},
		{"ls -la secrets", permissions.Default, permissions.Deny, "Read(./secrets/**)"},
		{"ls -a", permissions.Default, permissions.Allow, ""},
		{"ls s*", permissions.Default, permissions.Ask, "Read(./secrets/**)"},
		{"cat s*", permissions.Default, permissions.Allow, ""},
		{"ls -aR", permissions.Default, permissions.Ask, "Read(./"},
		{"du -sh .", permissions.Default, permissions.Allow, ""},
		{"diff -r --no-dereference . ../other", permissions.BypassPermissions, permissions.Ask, "Read(./"},
		{"git grep --untracked KEY", permissions.Default, permissions.Ask, "Read(./"},
		// Issue 40 item 6: git reads the index and the history too.
		{"git grep hunter2", permissions.Plan, permissions.Deny, "Read(./"},
		{"git grep -n hunter2 src", permissions.Default, permissions.Ask, "Read(./"},
		{"git cat-file -p :.env", permissions.Plan, permissions.Deny, "Read(./.env)"},
		{"git show HEAD:.env", permissions.Default, permissions.Deny, "Read(./.env)"},
		{"git show HEAD~2:secrets/key.pem", permissions.Default, permissions.Deny, "Read(./secrets/**)"},
		{"git diff HEAD -- .env", permissions.Default, permissions.Deny, "Read(./.env)"},
		{"git show HEAD:src/main.go", permissions.Default, permissions.Allow, ""},
		{"git log -p -3", permissions.Default, permissions.Allow, ""},
		// Files named by options and scripts.
		{"sed 'r .env' f", permissions.BypassPermissions, permissions.Deny, "Read(./.env)"},
		{"sed -n '1R secrets/k' f", permissions.Default, permissions.Deny, "Read(./secrets/**)"},
		{"jq --rawfile k .env -n '$k'", permissions.Default, permissions.Deny, "Read(./.env)"},
		{"grep -f .env x", permissions.Default, permissions.Deny, "Read(./.env)"},
		{"grep -f.env x", permissions.Default, permissions.Deny, "Read(./.env)"},
		{"grep --file=.env x", permissions.Default, permissions.Deny, "Read(./.env)"},
		{"sort --random-source=.env f", permissions.Default, permissions.Deny, "Read(./.env)"},
		{"cat < .env", permissions.Default, permissions.Deny, "Read(./.env)"},
		{"xargs -a .env echo", permissions.BypassPermissions, permissions.Deny, "Read(./.env)"},
		{"xargs --arg-file=.env echo", permissions.Default, permissions.Deny, "Read(./.env)"},
		{"strings @.env", permissions.Default, permissions.Deny, "Read(./.env)"},
		{"git blame --ignore-revs-file=.env f", permissions.Default, permissions.Deny, "Read(./.env)"},
		// Not paths: a pattern, a script, a delimiter, text.
		{"grep .env README.md", permissions.Default, permissions.Allow, ""},
		{"grep .* README.md", permissions.Default, permissions.Ask, "Read(./.env)"}, // .aaa .env ...: a pattern, then files
		{"rg .e* docs", permissions.Default, permissions.Ask, "Read(./.env)"},
		{"jq .e* f.json", permissions.Default, permissions.Ask, "Read(./.env)"},
		{"rg -n .env docs", permissions.Default, permissions.Allow, ""},
		{"echo .env", permissions.Default, permissions.Allow, ""},
		{"cut -d / -f 1 f", permissions.Default, permissions.Allow, ""},
		{"jq '..|.a?' f.json", permissions.Default, permissions.Allow, ""},
		// Lists of files and module imports: what they read is not known.
		{"wc --files0-from=list", permissions.Default, permissions.Ask, "only known when it runs"},
		{"sort --files0-from=- < list", permissions.Default, permissions.Ask, "only known when it runs"},
		{"md5sum -c sums", permissions.Default, permissions.Ask, "only known when it runs"},
		{"file -f list", permissions.Default, permissions.Ask, "only known when it runs"},
		{"find -files0-from list -name x", permissions.Default, permissions.Ask, "only known"},
		{"jq -n 'import \"m\" as $m; $m'", permissions.Default, permissions.Ask, "only known"},
		{"jq -L /tmp -n 1", permissions.Default, permissions.Ask, "only known"},
		{"jq -f prog.jq f.json", permissions.Default, permissions.Ask, "only known"},
		{"sed -n '1r /etc/shadow' f", permissions.Default, permissions.Ask, "/etc/shadow"},
		// git config reads the user's and the system's configuration.
		{"git config --global --list", permissions.Default, permissions.Ask, "/home/u/.gitconfig"},
		{"git config --list", permissions.Default, permissions.Ask, "outside the working directories"},
		{"git config --system --get core.editor", permissions.Default, permissions.Ask, "/etc/gitconfig"},
		{"git config --file ~/.gitconfig --list", permissions.Default, permissions.Ask, "/home/u/.gitconfig"},
		{"git config --local --list", permissions.Default, permissions.Allow, ""},
		{"git config --list", permissions.Plan, permissions.Deny, "plan mode"},
	} {
		d := permissions.Decide(permissions.Request{Tool: permissions.ToolBash, Command: c.cmd, ReadOnly: readonly.IsReadOnly(c.cmd)}, pol(c.mode))
		if d.Behavior != c.want || !strings.Contains(d.Reason, c.why) {
			t.Errorf("%q in %s: %v %q; want %v mentioning %q", c.cmd, c.mode, d.Behavior, d.Reason, c.want, c.why)
		}
	}
}

// The state directory holds the server's database (other sessions' tool
// inputs and outputs) and every session's files: even inside the working
// directory, nothing reads there without approval.
func TestStateDirIsPrivate(t *testing.T) {
	pol := permissions.Policy{Mode: permissions.Default, WorkDir: "/home/u", HomeDir: "/home/u",
		PrivateDirs:     []string{"/home/u/.local/state/toolpipe"},
		ReadOnlyCommand: readonly.IsReadOnly, BashPaths: readonly.ReadPaths}
	for _, c := range []struct {
		cmd  string
		want permissions.Behavior
		why  string
	}{
		{"strings .local/state/toolpipe/temporal.db", permissions.Ask, "/home/u/.local/state/toolpipe"},
		{"cat ~/.local/state/toolpipe/s1/tool-results/t.txt", permissions.Ask, "other sessions' data"},
		{"grep -r ANTHROPIC_API_KEY .", permissions.Ask, "what is in /home/u/.local/state/toolpipe (it reads everything under .)"},
		{"grep -r x ~/.local", permissions.Ask, "what is in"},
		{"cat ~/.local/*/toolpipe/temporal.db", permissions.Ask, "the pattern ~/.local/*/toolpipe/temporal.db may match it"},
		{"find . -name temporal.db", permissions.Ask, "what is in"},
		{"rg --hidden -uu sk-ant", permissions.Ask, "what is in"},
		{"ls ~/.local/state", permissions.Allow, ""},
		{"cat notes.txt src/*.go", permissions.Allow, ""},
		{"grep -r x src", permissions.Allow, ""},
		{"rg x", permissions.Allow, ""}, // .local is hidden, rg skips it
	} {
		d := permissions.Decide(permissions.Request{Tool: permissions.ToolBash, Command: c.cmd, ReadOnly: readonly.IsReadOnly(c.cmd)}, pol)
		if d.Behavior != c.want || !strings.Contains(d.Reason, c.why) {
			t.Errorf("%q: %v %q; want %v mentioning %q", c.cmd, d.Behavior, d.Reason, c.want, c.why)
		}
	}
	for _, tool := range []string{permissions.ToolRead, permissions.ToolGrep, permissions.ToolEdit} {
		d := permissions.Decide(permissions.Request{Tool: tool, Paths: []string{"/home/u/.local/state/toolpipe/temporal.db"}}, pol)
		if d.Behavior != permissions.Ask {
			t.Errorf("%s of temporal.db: %+v; want ask", tool, d)
		}
	}
}

// A byte that bash and the parser read differently must not hide a part from
// the rules: the parser takes "\r#" for the start of a comment, bash runs the
// substitution, so Bash(touch:*) saw only "echo a" (issue 24, class 1).
func TestControlBytesDoNotHidePartsFromRules(t *testing.T) {
	deny, err := permissions.ParseRule("Bash(touch:*)")
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"echo a\r# $(touch x)", "echo a\r;touch x", "echo \x01; touch x"} {
		for _, mode := range []permissions.Mode{permissions.BypassPermissions, permissions.Default, permissions.Plan} {
			pol := permissions.Policy{Mode: mode, WorkDir: "/proj", Deny: []permissions.Rule{deny}, ReadOnlyCommand: readonly.IsReadOnly}
			d := permissions.Decide(permissions.Request{Tool: permissions.ToolBash, Command: cmd, ReadOnly: readonly.IsReadOnly(cmd)}, pol)
			if d.Behavior == permissions.Allow {
				t.Errorf("%q in %s: allowed (%s); the deny rule cannot be checked against it", cmd, mode, d.Reason)
			}
		}
	}
}
