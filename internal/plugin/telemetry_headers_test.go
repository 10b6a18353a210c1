package plugin

import (
	"reflect"
	"testing"
)

// The OTLP headers are read through the lookup (the held secrets), in the
// OpenTelemetry format, the signal's own variable winning.
func TestOTLPHeaders(t *testing.T) {
	env := map[string]string{
		"OTEL_EXPORTER_OTLP_HEADERS":        "authorization=Bearer%20general, x-team = core ,bad",
		"OTEL_EXPORTER_OTLP_TRACES_HEADERS": "authorization=Bearer%20traces",
	}
	got := otlpHeaders(func(k string) string { return env[k] }, "OTEL_EXPORTER_OTLP_TRACES_HEADERS")
	want := map[string]string{"authorization": "Bearer traces", "x-team": "core"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if h := otlpHeaders(func(string) string { return "" }, "X"); h != nil {
		t.Fatalf("no headers: %v", h)
	}
}
