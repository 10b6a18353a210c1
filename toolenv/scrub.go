package toolenv

import (
	"os"
	"path"
	"slices"
	"strings"
)

// DefaultDeny are the names (shell patterns, matched case-sensitively) of the
// worker's variables that tools never see: the model API key, Temporal's TLS
// material and API key, telemetry headers (they carry credentials), cloud and
// forge tokens, and names that say they hold a secret.
var DefaultDeny = []string{
	"ANTHROPIC_*", "CLAUDE_CODE_OAUTH_TOKEN", "OPENAI_API_KEY",
	"TEMPORAL_API_KEY", "TEMPORAL_TLS_*", "TEMPORAL_CODEC_AUTH", "TEMPORAL_CLIENT_KEY*", "TEMPORAL_CLIENT_CERT*", "TEMPORAL_GRPC_META_*",
	"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_*_HEADERS",
	"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS",
	"GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "NPM_TOKEN",
	"*_API_KEY", "*_APIKEY", "*_SECRET", "*_SECRET_*", "*_TOKEN", "*PASSWORD*", "*_PRIVATE_KEY",
}

// Policy says which of the worker's variables tools see. A variable is removed
// when it matches a Deny pattern and no Allow pattern; Allow is how an operator
// hands a tool a credential on purpose (GH_TOKEN for gh).
type Policy struct {
	Deny  []string
	Allow []string
}

// The environment variables that configure the policy of a worker: a
// comma-separated list of patterns added to DefaultDeny, and one of patterns
// that tools see even though a deny pattern matches them.
const (
	EnvSecret = "TOOLPIPE_SECRET_ENV"
	EnvPass   = "TOOLPIPE_PASS_ENV"
)

// FromEnvironment is DefaultDeny plus TOOLPIPE_SECRET_ENV, allowing
// TOOLPIPE_PASS_ENV.
func FromEnvironment() Policy {
	return Policy{
		Deny:  append(slices.Clone(DefaultDeny), splitList(os.Getenv(EnvSecret))...),
		Allow: splitList(os.Getenv(EnvPass)),
	}
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Secret reports whether the variable name is kept from tools.
func (p Policy) Secret(name string) bool {
	return matchAny(p.Deny, name) && !matchAny(p.Allow, name)
}

func matchAny(patterns []string, name string) bool {
	for _, pat := range patterns {
		if ok, _ := path.Match(pat, name); ok {
			return true
		}
	}
	return false
}

// Environ returns environ ("NAME=value" entries) without the secret variables.
func (p Policy) Environ(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !p.Secret(name) {
			out = append(out, kv)
		}
	}
	return out
}

// Redact replaces each of the values in s with "[redacted]", longest first so
// that a value containing another is replaced whole.
func Redact(s string, values []string) string {
	vs := slices.Clone(values)
	slices.SortFunc(vs, func(a, b string) int { return len(b) - len(a) })
	for _, v := range vs {
		if len(v) >= 6 {
			s = strings.ReplaceAll(s, v, "[redacted]")
		}
	}
	return s
}
