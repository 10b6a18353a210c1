package toolenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestPolicyAndRedact(t *testing.T) {
	p := Policy{Deny: append(DefaultDeny, "CORP_*"), Allow: []string{"GH_TOKEN"}}
	env := []string{"ANTHROPIC_API_KEY=sk-ant-123456", "ANTHROPIC_BASE_URL=http://x", "TEMPORAL_TLS_CLIENT_KEY_DATA=keydata",
		"OTEL_EXPORTER_OTLP_TRACES_HEADERS=auth=x", "DB_PASSWORD=pw123456", "CORP_VAULT=vault-value", "GH_TOKEN=ghp_passed",
		"PATH=/usr/bin", "HOME=/root", "GOFLAGS=-mod=mod", "TOKENIZERS_PARALLELISM=false"}
	got := strings.Join(p.Environ(env), " ")
	if got != "GH_TOKEN=ghp_passed PATH=/usr/bin HOME=/root GOFLAGS=-mod=mod TOKENIZERS_PARALLELISM=false" {
		t.Fatalf("Environ: %s", got)
	}
	if s := Redact("key sk-ant-123456 and sk-ant-123456-long, short 12345", []string{"sk-ant-123456", "sk-ant-123456-long", "12345"}); s != "key [redacted] and [redacted], short 12345" {
		t.Fatalf("Redact: %s", s)
	}
}

// The families of issue 40 item 5 that reached Bash, hooks and MCP servers, and
// credentials in a URL whatever the variable's name; an allowed name still passes.
func TestPolicyHidesSecretFamilies(t *testing.T) {
	p := Policy{Deny: DefaultDeny, Allow: []string{"AWS_REGION", "PROXY_OK"}}
	hidden := []string{"AZURE_STORAGE_KEY=k", "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountKey=x",
		"AWS_ACCESS_KEY_ID=AKIA", "GOOGLE_CREDENTIALS={}", "GCLOUD_PROJECT_KEY=x", "SECRET_KEY=django", "DATABASE_URL=postgres://u:p@db/x",
		"MYSQL_PWD=pw", "SENTRY_DSN=https://k@o.ingest/1", "https_proxy=http://user:pass@proxy:3128", "HTTP_PROXY=http://u:p@proxy",
		"MY_SERVICE=redis://:hunter2@cache:6379/0", "CORP_LIST=a,https://u:pw@h/x", "STRIPE_SECRETS=x", "SECRET_SAUCE=x"}
	kept := []string{"AWS_REGION=eu-west-1", "PATH=/usr/bin", "PWD=/w", "OLDPWD=/", "https_proxy=http://proxy:3128",
		"GIT_CONFIG_KEY_0=user.name", "DOCS=https://user@example.com/x", "PROXY_OK=http://u:p@proxy", "TOKENIZERS_PARALLELISM=false"}
	got := p.Environ(append(append([]string{}, hidden...), kept...))
	if strings.Join(got, "\n") != strings.Join(kept, "\n") {
		t.Errorf("Environ kept:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(kept, "\n"))
	}
}

func TestReadOnlyKeepsWorkerGitConfig(t *testing.T) {
	env := ReadOnly([]string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=w", "GIT_SSH_COMMAND=x", "PAGER=less"})
	s := strings.Join(env, "\n")
	for _, want := range []string{"GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_KEY_1=core.fsmonitor", "GIT_CONFIG_VALUE_1=false",
		"GIT_CONFIG_COUNT=17", "PAGER=cat", "GIT_PAGER=cat"} {
		if !strings.Contains(s, want+"\n") && !strings.HasSuffix(s, want) {
			t.Errorf("lacks %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, "GIT_SSH_COMMAND") || strings.Contains(s, "PAGER=less") {
		t.Errorf("kept a variable that runs programs:\n%s", s)
	}
}

// A repository written by its author configures a textconv, an external diff and
// clean/smudge/process filters, and its .gitattributes applies them (issue 40
// item 3): under ReadOnlyIn none of the read-only git commands that would run
// them does, and they still show the file.
func TestReadOnlyInSwitchesOffTheRepositorysDrivers(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	pwned := filepath.Join(t.TempDir(), "pwned")
	run := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir, cmd.Env = repo, env
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	base := append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x",
		"HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
	run(base, "init", "-q")
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("one\n"), 0o644)
	run(base, "add", "a.txt")
	run(base, "commit", "-qm", "one")
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("two\n"), 0o644)
	// The attacker's part, written after the commit so that the setup ran no driver.
	os.WriteFile(filepath.Join(repo, ".gitattributes"), []byte("*.txt diff=x filter=x\n"), 0o644)
	cfg := "[diff \"x\"]\n\ttextconv = sh -c 'echo textconv >> " + pwned + "; cat \"$1\"' --\n" +
		"\tcommand = sh -c 'echo command >> " + pwned + "' --\n" +
		"[diff]\n\texternal = sh -c 'echo external >> " + pwned + "' --\n" +
		"[filter \"x\"]\n\tclean = sh -c 'echo clean >> " + pwned + "; cat'\n\tsmudge = sh -c 'echo smudge >> " + pwned + "; cat'\n" +
		"\tprocess = sh -c 'echo process >> " + pwned + "'\n"
	f, err := os.OpenFile(filepath.Join(repo, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(cfg)
	f.Close()
	// Without the overrides the drivers run: the test can fail.
	run(ReadOnly(base), "diff")
	if _, err := os.Stat(pwned); err != nil {
		t.Fatalf("the hostile repository's drivers did not run under ReadOnly alone; the test proves nothing")
	}
	os.Remove(pwned)
	env := ReadOnlyIn(base, repo)
	for _, args := range [][]string{{"diff"}, {"diff", "HEAD"}, {"log", "-p"}, {"show"}, {"grep", "--textconv", "one", "HEAD"},
		{"blame", "a.txt"}, {"cat-file", "--filters", "HEAD:a.txt"}, {"cat-file", "--textconv", "HEAD:a.txt"}, {"status"},
		{"diff", "--stat"}, {"log", "-p", "--ext-diff"}} {
		out := run(env, args...)
		if b, err := os.ReadFile(pwned); err == nil {
			t.Errorf("git %s ran the repository's driver (%s):\n%s", strings.Join(args, " "), strings.TrimSpace(string(b)), out)
			os.Remove(pwned)
		}
	}
	if out := run(env, "log", "-p"); !strings.Contains(out, "+one") {
		t.Errorf("git log -p no longer shows the change:\n%s", out)
	}
}
