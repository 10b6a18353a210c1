package toolenv

import (
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
