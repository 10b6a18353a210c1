package permissions

import (
	"strings"
	"testing"
)

// decideCase is one row of the rule-matching table. The fixture is a project
// at /proj (also the working directory unless workDir is set), a home at
// /home/u and one additional directory, /shared/lib.
type decideCase struct {
	name             string
	mode             Mode
	allow, deny, ask []string
	workDir          string
	hook             bool // set Policy.ReadOnlyCommand to fakeReadOnly
	req              Request
	want             Behavior
	rule             string // when not "", the Decision's Rule must equal it
}

// fakeReadOnly stands in for readonly.IsReadOnly so that this package's
// tests do not depend on the classifier's allowlist.
func fakeReadOnly(cmd string) bool {
	return !strings.ContainsAny(cmd, ">$`") && (strings.HasPrefix(cmd, "head") || strings.HasPrefix(cmd, "grep") || cmd == "ls")
}

func bash(cmd string) Request               { return Request{Tool: ToolBash, Command: cmd} }
func robash(cmd string) Request             { return Request{Tool: ToolBash, Command: cmd, ReadOnly: true} }
func file(tool string, p ...string) Request { return Request{Tool: tool, Paths: p} }
func fetch(url string) Request              { return Request{Tool: ToolWebFetch, URL: url} }
func list(rules ...string) []string         { return rules }

var decideCases = []decideCase{
	// Bash: exact, prefix, wildcard.
	{name: "exact", allow: list("Bash(npm test)"), req: bash("npm test"), want: Allow, rule: "Bash(npm test)"},
	{name: "exact with extra argument", allow: list("Bash(npm test)"), req: bash("npm test --watch"), want: Ask},
	{name: "exact ignores spacing", allow: list("Bash(npm test)"), req: bash("  npm   test "), want: Allow},
	{name: "prefix", allow: list("Bash(git push:*)"), req: bash("git push origin main"), want: Allow, rule: "Bash(git push:*)"},
	{name: "prefix equal", allow: list("Bash(git push:*)"), req: bash("git push"), want: Allow},
	{name: "prefix word boundary", allow: list("Bash(git push:*)"), req: bash("git pushx"), want: Ask},
	{name: "wildcard", allow: list("Bash(git *)"), req: bash("git status"), want: Allow, rule: "Bash(git *)"},
	{name: "wildcard word boundary", allow: list("Bash(git *)"), req: bash("gitk"), want: Ask},
	{name: "wildcard trailing optional", allow: list("Bash(git *)"), req: bash("git"), want: Allow},
	{name: "wildcard no space", allow: list("Bash(ls*)"), req: bash("lsof -i"), want: Allow},
	{name: "wildcard middle", allow: list("Bash(npm * --save)"), req: bash("npm install lodash --save"), want: Allow},
	{name: "wildcard middle anchored", allow: list("Bash(npm * --save)"), req: bash("npm install lodash --save-dev"), want: Ask},
	{name: "wildcard leading", allow: list("Bash(* --version)"), req: bash("node --version"), want: Allow},
	{name: "Bash(*) is bare Bash", allow: list("Bash(*)"), req: bash("rm -rf build"), want: Allow, rule: "Bash"},
	{name: "bare Bash", allow: list("Bash"), req: bash("make deploy"), want: Allow, rule: "Bash"},

	// Bash: compound commands.
	{name: "&& each part allowed", allow: list("Bash(npm test)", "Bash(git status)"), req: bash("npm test && git status"), want: Allow, rule: "Bash(npm test), Bash(git status)"},
	{name: "&& one part not allowed", allow: list("Bash(npm test)"), req: bash("npm test && rm -rf /"), want: Ask},
	{name: "prefix does not cover &&", allow: list("Bash(safe:*)"), req: bash("safe && other"), want: Ask},
	{name: "; second part not allowed", allow: list("Bash(git *)"), req: bash("git status; curl evil.sh"), want: Ask},
	{name: "| without hook", allow: list("Bash(npm test)"), req: bash("npm test | head -5"), want: Ask},
	{name: "| read-only part via hook", allow: list("Bash(npm test)"), hook: true, req: bash("npm test | head -5"), want: Allow, rule: "Bash(npm test)"},
	{name: "hook sees redirect", allow: list("Bash(npm test)"), hook: true, req: bash("npm test; ls > out.txt"), want: Ask},
	{name: "hook alone decides nothing", hook: true, req: bash("ls; ls"), want: Ask},
	{name: "|| both allowed", allow: list("Bash(make)", "Bash(echo:*)"), req: bash("make || echo failed"), want: Allow},
	{name: "subshell parts", allow: list("Bash(rm *)"), req: bash("(cd /tmp && rm -rf x)"), want: Ask},
	{name: "redirected subshell is a part", allow: list("Bash(ls *)"), hook: true, req: bash("(ls) > out"), want: Ask},
	{name: "command substitution is a part", allow: list("Bash(echo:*)"), req: bash("echo $(rm -rf ~)"), want: Ask},
	{name: "quoted operators are one part", allow: list("Bash(git commit:*)"), req: bash(`git commit -m "fix a && b; c | d"`), want: Allow},
	{name: "quoted rm is not denied", allow: list("Bash(echo:*)"), deny: list("Bash(rm:*)"), req: bash(`echo "rm -rf / && reboot"`), want: Allow},
	{name: "export is its own part", allow: list("Bash(git status)"), req: bash("export PATH=/evil:$PATH; git status"), want: Ask},
	{name: "function body is a part", allow: list("Bash(ls *)"), req: bash("ls() { rm -rf x; }; ls"), want: Ask},
	{name: "exact rule naming the whole line", allow: list("Bash(npm ci && npm test)"), req: bash("npm ci && npm test"), want: Allow},
	{name: "redirect ignored when matching", allow: list("Bash(python:*)"), req: bash("python x.py > out.txt"), want: Allow},
	{name: "wrapper stripped for allow", allow: list("Bash(npm test)"), req: bash("timeout 60 npm test"), want: Allow},
	{name: "wrappers stacked", allow: list("Bash(npm test)"), req: bash("nice -n 10 nohup npm test"), want: Allow},
	{name: "assignment kept for allow", allow: list("Bash(npm test)"), req: bash("NODE_OPTIONS=--require=x npm test"), want: Ask},
	{name: "deny any part", allow: list("Bash"), deny: list("Bash(rm:*)"), req: bash("ls && rm -rf x"), want: Deny, rule: "Bash(rm:*)"},
	{name: "deny through timeout", deny: list("Bash(rm:*)"), mode: BypassPermissions, req: bash("timeout 5 rm -rf x"), want: Deny},
	{name: "deny through assignment and path", deny: list("Bash(rm:*)"), mode: BypassPermissions, req: bash("FOO=1 /bin/rm -rf x"), want: Deny},
	{name: "deny through env", deny: list("Bash(rm *)"), mode: BypassPermissions, req: bash("env X=1 rm x"), want: Deny},
	{name: "deny inside substitution", deny: list("Bash(curl:*)"), mode: BypassPermissions, req: bash("echo $(curl evil)"), want: Deny},
	{name: "unparsable never allowed by a rule", allow: list("Bash(echo:*)"), req: bash("echo 'unterminated"), want: Ask},
	{name: "unparsable with bare allow", allow: list("Bash"), req: bash("echo 'unterminated"), want: Ask},
	{name: "unparsable with bare allow and deny rules", allow: list("Bash"), deny: list("Bash(rm:*)"), req: bash("echo ("), want: Ask},
	{name: "unparsable in bypass with deny rules", mode: BypassPermissions, deny: list("Bash(rm:*)"), req: bash("ls ) (("), want: Ask},
	{name: "unparsable in bypass without rules", mode: BypassPermissions, req: bash("ls ) (("), want: Allow},
	{name: "unparsable matched whole by deny", deny: list("Bash(rm:*)"), req: bash("rm -rf x 'oops"), want: Deny},

	// Bash: read-only commands and modes.
	{name: "read-only without rules", req: robash("git log --oneline"), want: Allow, rule: ""},
	{name: "read-only in plan", mode: Plan, req: robash("ls -la"), want: Allow},
	{name: "read-only in acceptEdits", mode: AcceptEdits, req: robash("cat go.mod"), want: Allow},
	{name: "read-only but denied", deny: list("Bash(cat .env)"), req: robash("cat .env"), want: Deny},
	{name: "read-only but asked", ask: list("Bash(git log:*)"), req: robash("git log"), want: Ask, rule: "Bash(git log:*)"},
	{name: "plan beats allow", mode: Plan, allow: list("Bash(npm test)"), req: bash("npm test"), want: Deny},
	{name: "plan beats bare allow", mode: Plan, allow: list("Bash"), req: bash("touch x"), want: Deny},
	{name: "bypass runs anything", mode: BypassPermissions, req: bash("make deploy"), want: Allow},
	{name: "acceptEdits still asks for Bash", mode: AcceptEdits, req: bash("mkdir x"), want: Ask},
	{name: "default asks", req: bash("make"), want: Ask},
	{name: "deny beats allow", allow: list("Bash(git *)"), deny: list("Bash(git push:*)"), req: bash("git push origin"), want: Deny},
	{name: "ask beats allow", allow: list("Bash(git *)"), ask: list("Bash(git push:*)"), req: bash("git push origin"), want: Ask},
	{name: "deny beats ask", ask: list("Bash"), deny: list("Bash(git push:*)"), req: bash("git push"), want: Deny},
	{name: "ask in bypass", mode: BypassPermissions, ask: list("Bash(git push:*)"), req: bash("git push"), want: Ask},
	{name: "deny in bypass", mode: BypassPermissions, deny: list("Bash"), req: robash("ls"), want: Deny, rule: "Bash"},

	// File tools: confinement and modes.
	{name: "read inside", req: file(ToolRead, "/proj/main.go"), want: Allow},
	{name: "read working dir itself", req: file(ToolGlob), want: Allow},
	{name: "read outside asks", req: file(ToolRead, "/etc/hosts"), want: Ask},
	{name: "read outside in plan", mode: Plan, req: file(ToolRead, "/etc/hosts"), want: Deny},
	{name: "read outside in bypass", mode: BypassPermissions, req: file(ToolRead, "/etc/hosts"), want: Allow},
	{name: "read outside allowed by //abs rule", allow: list("Read(//etc/hosts)"), mode: Plan, req: file(ToolRead, "/etc/hosts"), want: Allow},
	{name: "read in additional dir", req: file(ToolRead, "/shared/lib/x.h"), want: Allow},
	{name: "prefix sibling is outside", req: file(ToolRead, "/project/x"), want: Ask},
	{name: "edit inside default", req: file(ToolEdit, "/proj/main.go"), want: Ask},
	{name: "edit inside acceptEdits", mode: AcceptEdits, req: file(ToolEdit, "/proj/main.go"), want: Allow},
	{name: "write in additional dir acceptEdits", mode: AcceptEdits, req: file(ToolWrite, "/shared/lib/new.h"), want: Allow},
	{name: "edit outside acceptEdits", mode: AcceptEdits, req: file(ToolEdit, "/etc/hosts"), want: Ask},
	{name: "edit in plan", mode: Plan, allow: list("Edit"), req: file(ToolEdit, "/proj/main.go"), want: Deny},
	{name: "edit allowed by ./src/**", allow: list("Edit(./src/**)"), req: file(ToolEdit, "/proj/src/a/b.go"), want: Allow, rule: "Edit(./src/**)"},
	{name: "edit ./src/** not elsewhere", allow: list("Edit(./src/**)"), req: file(ToolEdit, "/proj/test/x.go"), want: Ask},
	{name: "Edit rule covers Write", allow: list("Edit(src/**)"), req: file(ToolWrite, "/proj/src/new.go"), want: Allow},
	{name: "Write rule does not cover Edit", allow: list("Write(./out/**)"), req: file(ToolEdit, "/proj/out/x"), want: Ask},
	{name: "Write rule covers Write", allow: list("Write(./out/**)"), req: file(ToolWrite, "/proj/out/x"), want: Allow},
	{name: "*.env at depth", deny: list("Read(*.env)"), req: file(ToolRead, "/proj/config/prod.env"), want: Deny, rule: "Read(*.env)"},
	{name: ".env at depth", deny: list("Read(.env)"), req: file(ToolRead, "/proj/a/b/.env"), want: Deny},
	{name: "./.env anchored", deny: list("Read(./.env)"), req: file(ToolRead, "/proj/sub/.env"), want: Allow},
	{name: "directory rule covers contents", deny: list("Read(./secrets)"), req: file(ToolRead, "/proj/secrets/key.pem"), want: Deny},
	{name: "Glob uses Read rules", deny: list("Read(./secrets/**)"), req: file(ToolGlob, "/proj/secrets"), want: Deny},
	{name: "Grep outside allowed by Read rule", allow: list("Read(//opt/**)"), req: file(ToolGrep, "/opt/x"), want: Allow},
	{name: "bare Read deny blocks Grep", deny: list("Read"), req: file(ToolGrep, "/proj"), want: Deny},
	{name: "//abs deny", deny: list("Read(//etc/**)"), mode: BypassPermissions, req: file(ToolRead, "/etc/passwd"), want: Deny},
	{name: "~/ deny", deny: list("Read(~/.ssh/**)"), mode: BypassPermissions, req: file(ToolRead, "/home/u/.ssh/id_rsa"), want: Deny},
	{name: "/path is project-relative", allow: list("Edit(/docs/**)"), workDir: "/proj/sub", req: file(ToolEdit, "/proj/docs/a.md"), want: Allow},
	{name: "/path is not absolute", mode: BypassPermissions, deny: list("Edit(/docs/**)"), req: file(ToolEdit, "/docs/a.md"), want: Allow},
	{name: "relative path is cwd-relative", allow: list("Edit(docs/**)"), workDir: "/proj/sub", req: file(ToolEdit, "/proj/sub/docs/a.md"), want: Allow},
	{name: "relative path not project-relative", allow: list("Edit(docs/**)"), workDir: "/proj/sub", req: file(ToolEdit, "/proj/docs/a.md"), want: Ask},
	{name: "symlink target outside", req: file(ToolRead, "/proj/link", "/etc/shadow"), want: Ask},
	{name: "symlink target denied", deny: list("Read(//etc/**)"), req: file(ToolRead, "/proj/link", "/etc/passwd"), want: Deny},
	{name: "dotdot cleaned", req: file(ToolRead, "/proj/../etc/passwd"), want: Ask},
	{name: "every path needs an allow rule", allow: list("Read(//opt/**)"), req: file(ToolRead, "/opt/a", "/srv/b"), want: Ask},
	{name: "bypass protects .git", mode: BypassPermissions, req: file(ToolEdit, "/proj/.git/config"), want: Ask},
	{name: "bypass exempts .claude/commands", mode: BypassPermissions, req: file(ToolWrite, "/proj/.claude/commands/x.md"), want: Allow},
	{name: "acceptEdits protects .claude", mode: AcceptEdits, req: file(ToolEdit, "/proj/.claude/settings.json"), want: Ask},
	{name: "acceptEdits protects .mcp.json", mode: AcceptEdits, req: file(ToolWrite, "/proj/.mcp.json"), want: Ask},
	{name: "acceptEdits protects toolpipe.yaml", mode: AcceptEdits, req: file(ToolEdit, "/proj/sub/toolpipe.yaml"), want: Ask},
	{name: "acceptEdits protects a case variant", mode: AcceptEdits, req: file(ToolWrite, "/proj/.MCP.json"), want: Ask},
	{name: "acceptEdits protects .Git", mode: AcceptEdits, req: file(ToolWrite, "/proj/.Git/hooks/pre-commit"), want: Ask},
	{name: "bypass protects .mcp.json", mode: BypassPermissions, req: file(ToolWrite, "/proj/.mcp.json"), want: Ask},
	{name: "acceptEdits allows a file named like a dir", mode: AcceptEdits, req: file(ToolWrite, "/proj/docs/mcp.json"), want: Allow},
	{name: "rule covers protected", mode: AcceptEdits, allow: list("Edit(./.git/**)"), req: file(ToolEdit, "/proj/.git/config"), want: Allow},

	// WebFetch.
	{name: "domain exact", allow: list("WebFetch(domain:example.com)"), req: fetch("https://example.com/docs"), want: Allow, rule: "WebFetch(domain:example.com)"},
	{name: "domain exact not subdomain", allow: list("WebFetch(domain:example.com)"), req: fetch("https://api.example.com/"), want: Ask},
	{name: "domain wildcard subdomain", allow: list("WebFetch(domain:*.example.com)"), req: fetch("https://a.b.example.com/x"), want: Allow},
	{name: "domain wildcard not apex", allow: list("WebFetch(domain:*.example.com)"), req: fetch("https://example.com/"), want: Ask},
	{name: "domain case and port", allow: list("WebFetch(domain:Example.COM)"), req: fetch("https://EXAMPLE.com:8443/x"), want: Allow},
	{name: "domain lookalike", allow: list("WebFetch(domain:example.com)"), req: fetch("https://example.com.evil.org/"), want: Ask},
	{name: "domain userinfo trick", allow: list("WebFetch(domain:example.com)"), req: fetch("https://example.com@evil.org/"), want: Ask},
	{name: "domain deny without scheme", mode: BypassPermissions, deny: list("WebFetch(domain:evil.com)"), req: fetch("evil.com/x"), want: Deny},
	{name: "domain any", allow: list("WebFetch(domain:*)"), req: fetch("https://x.org"), want: Allow},
	{name: "webfetch bypass", mode: BypassPermissions, req: fetch("https://x.org"), want: Allow},
	{name: "webfetch plan asks", mode: Plan, req: fetch("https://x.org"), want: Ask},
	{name: "hostless URL with deny rule", mode: BypassPermissions, deny: list("WebFetch(domain:evil.com)"), req: fetch("https://"), want: Ask},

	// MCP and other tools.
	{name: "mcp server rule", allow: list("mcp__github"), req: Request{Tool: "mcp__github__create_issue"}, want: Allow, rule: "mcp__github"},
	{name: "mcp server __* rule", allow: list("mcp__github__*"), req: Request{Tool: "mcp__github__create_issue"}, want: Allow, rule: "mcp__github"},
	{name: "mcp server prefix is not a server", allow: list("mcp__git"), req: Request{Tool: "mcp__github__x"}, want: Ask},
	{name: "mcp tool rule exact", allow: list("mcp__github__get_issue"), req: Request{Tool: "mcp__github__create_issue"}, want: Ask},
	{name: "mcp deny server in bypass", mode: BypassPermissions, deny: list("mcp__github"), req: Request{Tool: "mcp__github__delete_repo"}, want: Deny},
	{name: "mcp plan not read-only", mode: Plan, allow: list("mcp__db"), req: Request{Tool: "mcp__db__query"}, want: Deny},
	{name: "mcp plan read-only", mode: Plan, allow: list("mcp__db"), req: Request{Tool: "mcp__db__query", ReadOnly: true}, want: Allow},
	{name: "other tool default", req: Request{Tool: "TodoWrite"}, want: Ask},
	{name: "other tool bypass", mode: BypassPermissions, req: Request{Tool: "TodoWrite"}, want: Allow},
}

func TestDecideTable(t *testing.T) {
	if len(decideCases) < 60 {
		t.Fatalf("the table has %d cases; the brief asks for at least 60", len(decideCases))
	}
	for _, tc := range decideCases {
		t.Run(tc.name, func(t *testing.T) {
			pol := Policy{
				Allow: mustRules(t, tc.allow), Deny: mustRules(t, tc.deny), Ask: mustRules(t, tc.ask),
				Mode: tc.mode, ProjectDir: "/proj", WorkDir: "/proj", HomeDir: "/home/u",
				AdditionalDirs: []string{"/shared/lib"},
			}
			if tc.workDir != "" {
				pol.WorkDir = tc.workDir
			}
			if tc.hook {
				pol.ReadOnlyCommand = fakeReadOnly
			}
			got := Decide(tc.req, pol)
			if got.Behavior != tc.want || tc.rule != "" && got.Rule != tc.rule {
				t.Fatalf("Decide = %v rule %q (%s); want %v rule %q", got.Behavior, got.Rule, got.Reason, tc.want, tc.rule)
			}
			if got.Reason == "" {
				t.Fatalf("Decide gave no reason")
			}
			if again := Decide(tc.req, pol); again != got {
				t.Fatalf("Decide is not deterministic: %+v then %+v", got, again)
			}
		})
	}
}

func mustRules(t *testing.T, texts []string) []Rule {
	t.Helper()
	rules := make([]Rule, len(texts))
	for i, s := range texts {
		r, err := ParseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		rules[i] = r
	}
	return rules
}
