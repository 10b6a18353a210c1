package activities

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/tool/readonly"
	"github.com/toolpipe/toolpipe/toolenv"
)

// The worker's secrets do not reach Bash: printenv (read-only, so it runs without
// approval) prints nothing of them, while ordinary variables and the allow list
// pass.
func TestBashEnvironmentHasNoSecrets(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-secret-value-1234")
	t.Setenv("TEMPORAL_TLS_KEY", "-----BEGIN KEY----- tls-secret")
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer otel-secret")
	t.Setenv("MY_SERVICE_TOKEN", "service-token-secret")
	t.Setenv("GH_TOKEN", "gh-token-passed-on-purpose")
	t.Setenv("TOOLPIPE_TEST_PLAIN", "plain-value")
	pol := toolenv.Policy{Deny: toolenv.DefaultDeny, Allow: []string{"GH_TOKEN"}}
	a, err := New(Config{StateDir: t.TempDir(), Env: &pol})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := "printenv ANTHROPIC_API_KEY; printenv; env"
	if !readonly.IsReadOnly(cmd) {
		t.Fatal("the command should run without approval")
	}
	out, err := a.Bash(context.Background(), call(t, tool.BashName, dir, map[string]any{"command": cmd}))
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"sk-ant-secret", "tls-secret", "otel-secret", "service-token-secret", "ANTHROPIC_API_KEY"} {
		if strings.Contains(out.Content, secret) {
			t.Errorf("Bash output shows %q", secret)
		}
	}
	for _, want := range []string{"plain-value", "gh-token-passed-on-purpose"} {
		if !strings.Contains(out.Content, want) {
			t.Errorf("Bash output lacks %q: the environment lost what it should keep", want)
		}
	}
}

// A repository whose config runs programs (fsmonitor, pager, hooks, ssh, gpg) does
// not run them through read-only git, and an implicit bare repository planted in
// the working tree is refused.
func TestReadOnlyGitRunsNoConfiguredPrograms(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	a, root := newActs(t), t.TempDir()
	repo := filepath.Join(root, "r")
	gitRun := func(args ...string) {
		c := exec.Command("git", args...)
		c.Dir = repo
		c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.Mkdir(repo, 0o755)
	gitRun("init", "-q")
	os.WriteFile(filepath.Join(repo, "f"), []byte("a\n"), 0o644)
	gitRun("add", "f")
	gitRun("commit", "-qm", "one")
	os.WriteFile(filepath.Join(repo, "f"), []byte("a\nb\n"), 0o644)
	pwned := func(what string) string { return "touch " + filepath.Join(root, "PWNED_"+what) }
	cfg, _ := os.OpenFile(filepath.Join(repo, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	cfg.WriteString("[core]\n\tfsmonitor = \"" + pwned("fsmonitor") + "; echo\"\n\tpager = \"" + pwned("pager") + "; cat\"\n" +
		"\tsshCommand = \"" + pwned("ssh") + "\"\n[log]\n\tshowSignature = true\n[gpg]\n\tprogram = \"" + pwned("gpg") + "\"\n" +
		"[remote \"origin\"]\n\turl = ssh://example.invalid/x\n[pager]\n\tlog = \"" + pwned("pagerlog") + "\"\n")
	cfg.Close()
	os.MkdirAll(filepath.Join(repo, ".git", "hooks"), 0o755)
	os.WriteFile(filepath.Join(repo, ".git", "hooks", "post-index-change"), []byte("#!/bin/sh\n"+pwned("hook")+"\n"), 0o755)
	// The planted directory, in the working tree.
	ng := filepath.Join(repo, "ng")
	os.MkdirAll(filepath.Join(ng, "objects", "info"), 0o755)
	os.MkdirAll(filepath.Join(ng, "refs", "heads"), 0o755)
	os.WriteFile(filepath.Join(ng, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(ng, "config"), []byte("[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "+pwned("planted")+"; echo\n"), 0o644)

	for _, cmd := range []string{"git status --short", "git diff --stat", "git log -p -1", "git -P log --show-signature -1",
		"git --no-pager show --stat", "git remote show -n origin", "git reflog -n 1", "git log -1 | cat"} {
		if !readonly.IsReadOnly(cmd) {
			t.Fatalf("%q should be read-only", cmd)
		}
		out, err := a.Bash(context.Background(), call(t, tool.BashName, repo, map[string]any{"command": cmd}))
		if err != nil || out.IsError {
			t.Errorf("%s: %+v %v", cmd, out, err)
		}
	}
	// Inside the planted directory git finds it as a bare repository: refused.
	out, err := a.Bash(context.Background(), call(t, tool.BashName, ng, map[string]any{"command": "git status --short"}))
	if err != nil || !out.IsError || !strings.Contains(out.Content, "safe.bareRepository") {
		t.Errorf("git status inside a planted bare repository: %+v %v", out, err)
	}
	if m, _ := filepath.Glob(filepath.Join(root, "PWNED_*")); len(m) > 0 {
		t.Fatalf("read-only git ran configured programs: %v", m)
	}
	// The same config does run programs outside the read-only environment: the test
	// can fail.
	c := exec.Command("bash", "-c", "git status --short; git --git-dir=ng status --short")
	c.Dir = repo
	c.Run()
	if m, _ := filepath.Glob(filepath.Join(root, "PWNED_*")); len(m) == 0 {
		t.Fatal("the planted config ran nothing even without the read-only environment")
	}
}
