package plugin

import (
	"net/url"
	"strings"
)

// otlpHeaders are the OTLP exporter headers of a signal: OTEL_EXPORTER_OTLP_HEADERS,
// then the signal's own variable, whose keys win (the OpenTelemetry format:
// key=value pairs separated by commas, values percent-encoded). They carry
// credentials, so HideSecrets holds them out of the process environment, where
// the exporters would look for them themselves; they are read through env and
// handed to the exporters instead. nil when none are set.
func otlpHeaders(env func(string) string, signalVar string) map[string]string {
	var h map[string]string
	for _, v := range []string{"OTEL_EXPORTER_OTLP_HEADERS", signalVar} {
		for _, pair := range strings.Split(env(v), ",") {
			k, val, ok := strings.Cut(pair, "=")
			k = strings.TrimSpace(k)
			if !ok || k == "" {
				continue
			}
			if dk, err := url.PathUnescape(k); err == nil {
				k = dk
			}
			val = strings.TrimSpace(val)
			if dv, err := url.PathUnescape(val); err == nil {
				val = dv
			}
			if h == nil {
				h = map[string]string{}
			}
			h[k] = val
		}
	}
	return h
}
