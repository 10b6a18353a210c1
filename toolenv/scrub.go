package toolenv

import (
	"path"
	"slices"
	"strings"
)

// DefaultDeny are the names (shell patterns, matched case-sensitively) of the
// worker's variables that tools never see: the model API key, Temporal's TLS
// material and API key, telemetry headers (they carry credentials), the cloud
// SDKs' whole families (the blob store reads them; AWS_REGION goes with
// AWS_ACCESS_KEY_ID: a tool that needs the cloud is given it on purpose), forge
// tokens, connection strings, and names that say they hold a secret (issue 40
// item 5: AZURE_STORAGE_KEY, SECRET_KEY, MYSQL_PWD, DATABASE_URL and SENTRY_DSN
// reached Bash).
var DefaultDeny = []string{
	"ANTHROPIC_*", "CLAUDE_CODE_OAUTH_TOKEN", "OPENAI_API_KEY",
	"TEMPORAL_API_KEY", "TEMPORAL_TLS_*", "TEMPORAL_CODEC_AUTH", "TEMPORAL_CLIENT_KEY*", "TEMPORAL_CLIENT_CERT*", "TEMPORAL_GRPC_META_*",
	"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_*_HEADERS",
	"AWS_*", "AZURE_*", "GOOGLE_*", "GCLOUD_*", "CLOUDSDK_*",
	"GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "NPM_TOKEN",
	"DATABASE_URL", "*_DATABASE_URL", "*_DSN", "*_CONNECTION_STRING", "MYSQL_PWD", "PGPASSFILE",
	"*_API_KEY", "*_APIKEY", "*_KEY", "*_SECRET", "*_SECRET_*", "SECRET_*", "*_SECRETS", "*_TOKEN", "*PASSWORD*", "*_PWD", "*_PASSWD", "*_PRIVATE_KEY", "*_CREDENTIALS",
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
		// Getenv: TOOLPIPE_SECRET_ENV is itself held once HideSecrets ran.
		Deny:  append(slices.Clone(DefaultDeny), splitList(Getenv(EnvSecret))...),
		Allow: splitList(Getenv(EnvPass)),
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

// SecretValue reports whether the variable is kept from tools for its name or for
// its value: a URL with a password in it (a proxy's http://user:pass@host, a
// connection string under any name) is a credential whatever it is called. Allow
// still wins.
func (p Policy) SecretValue(name, value string) bool {
	if matchAny(p.Allow, name) {
		return false
	}
	return matchAny(p.Deny, name) || credentialURL(value)
}

// credentialURL reports whether s holds scheme://user:password@…, also as one
// of a list (NO_PROXY-like values, a DSN with options).
func credentialURL(s string) bool {
	for rest := s; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			return false
		}
		rest = rest[i+3:]
		auth := rest
		if end := strings.IndexAny(auth, "/?#, \t"); end >= 0 {
			auth = auth[:end]
		}
		if at := strings.LastIndex(auth, "@"); at > 0 {
			if _, pass, ok := strings.Cut(auth[:at], ":"); ok && pass != "" {
				return true
			}
		}
	}
}

// Environ returns environ ("NAME=value" entries) without the secret variables,
// by name or by value (SecretValue).
func (p Policy) Environ(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if !p.SecretValue(name, value) {
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
