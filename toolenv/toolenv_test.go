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
