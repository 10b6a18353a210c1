package permissions_test

import (
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool/readonly"
)

// Read-only Bash commands are confined to the working directories like the file
// tools: a path outside them, or one only known when the command runs, asks in
// default and acceptEdits, is refused in plan mode, and runs in
// bypassPermissions. Read deny rules cover the paths Bash commands name.
func TestBashReadsConfinedToWorkingDirectories(t *testing.T) {
	rule := func(s string) permissions.Rule {
		r, err := permissions.ParseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	pol := func(mode permissions.Mode) permissions.Policy {
		return permissions.Policy{Mode: mode, WorkDir: "/proj", AdditionalDirs: []string{"/shared/lib"}, HomeDir: "/home/u",
			Deny:            []permissions.Rule{rule("Read(./.env)"), rule("Read(./secrets/**)")},
			Allow:           []permissions.Rule{rule("Bash(npm test)")},
			ReadOnlyCommand: readonly.IsReadOnly, BashPaths: readonly.ReadPaths}
	}
	decide := func(cmd string, mode permissions.Mode) permissions.Decision {
		return permissions.Decide(permissions.Request{Tool: permissions.ToolBash, Command: cmd, ReadOnly: readonly.IsReadOnly(cmd)}, pol(mode))
	}
	for _, c := range []struct {
		cmd  string
		mode permissions.Mode
		want permissions.Behavior
		why  string
	}{
		{"cat /etc/passwd", permissions.Default, permissions.Ask, "/etc/passwd, outside the working directories"},
		{"cat /etc/passwd", permissions.AcceptEdits, permissions.Ask, "/etc/passwd"},
		{"cat /etc/passwd", permissions.Plan, permissions.Deny, "plan mode"},
		{"cat /etc/passwd", permissions.BypassPermissions, permissions.Allow, ""},
		{"head -n 3 < /etc/shadow", permissions.Default, permissions.Ask, "/etc/shadow"},
		{"grep -r root /etc", permissions.Default, permissions.Ask, "/etc"},
		{"grep --file=/etc/x y", permissions.Default, permissions.Ask, "/etc/x"},
		{"rg -f/etc/x y", permissions.Default, permissions.Ask, "/etc/x"},
		{"ls ..", permissions.Default, permissions.Ask, "outside"},
		{"cat src/../../etc/passwd", permissions.Default, permissions.Ask, "/etc/passwd"},
		{"cat ~/.ssh/id_rsa", permissions.Default, permissions.Ask, "/home/u/.ssh/id_rsa"},
		{"cat ~root/.bashrc", permissions.Default, permissions.Ask, "only known when it runs"},
		{"cat $HOME/.aws/credentials", permissions.Default, permissions.Ask, "only known when it runs"},
		{"find / -name id_rsa", permissions.Default, permissions.Ask, "Read(./secrets/**)"},
		{"echo /etc/passwd | xargs cat", permissions.Default, permissions.Ask, "xargs"},
		{"git diff --no-index /etc/passwd x", permissions.Default, permissions.Ask, "/etc/passwd"},
		{"npm test && cat /etc/passwd", permissions.Default, permissions.Ask, "/etc/passwd"},
		{"cat README.md src/*.go", permissions.Default, permissions.Allow, ""},
		{"wc -l *.go", permissions.Default, permissions.Allow, ""},
		{"cat /shared/lib/x.h", permissions.Default, permissions.Allow, ""},
		{"ls 2>/dev/null; cat < /dev/null", permissions.Default, permissions.Allow, ""},
		{"echo $HOME /etc/passwd", permissions.Default, permissions.Allow, ""},
		{"npm test && cat README.md", permissions.Default, permissions.Allow, ""},
		{"cat .env", permissions.BypassPermissions, permissions.Deny, "Read(./.env)"},
		{"grep KEY .env", permissions.Default, permissions.Deny, "Read(./.env)"},
		{"cat secrets/key.pem", permissions.Default, permissions.Deny, "Read(./secrets/**)"},
		{"cat .env.example", permissions.Default, permissions.Allow, ""},
	} {
		d := decide(c.cmd, c.mode)
		if d.Behavior != c.want || !strings.Contains(d.Reason, c.why) {
			t.Errorf("%q in %s: %v %q; want %v mentioning %q", c.cmd, c.mode, d.Behavior, d.Reason, c.want, c.why)
		}
	}
	// Without BashPaths (histories recorded before it), nothing changes.
	p := pol(permissions.Default)
	p.BashPaths = nil
	if d := permissions.Decide(permissions.Request{Tool: permissions.ToolBash, Command: "cat /etc/passwd", ReadOnly: true}, p); d.Behavior != permissions.Allow {
		t.Fatalf("without BashPaths: %+v", d)
	}
}
