package plugin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"

	"github.com/toolpipe/toolpipe/toolenv"
)

// TraceEnv is toolpipe's own switch for local debugging: "stderr" prints every span
// as JSON on stderr, any other value is a file spans are appended to, one JSON
// object a line. (Not stdout: `starter run` prints the user message there.)
const TraceEnv = "TOOLPIPE_TRACE"

// TelemetryConfig says where traces and metrics go. With nothing set and none of the
// standard OTEL_* variables in the environment, telemetry is off.
type TelemetryConfig struct {
	// ServiceName is the service.name resource attribute; OTEL_SERVICE_NAME wins.
	ServiceName string
	// Getenv reads the environment; nil means toolenv.Getenv (held secrets too).
	Getenv func(string) string
	// Stderr receives TOOLPIPE_TRACE=stderr spans; nil means os.Stderr.
	Stderr io.Writer
	// TracerProvider and MeterProvider, when set, replace what the environment
	// selects (tests, programs embedding toolpipe with their own set-up).
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
}

// Telemetry is the tracing and metrics set-up of a process: Connect adds it to the
// Temporal client, and the workers created from that client inherit it.
type Telemetry struct {
	tracer trace.TracerProvider // nil: tracing off
	meter  metric.MeterProvider // nil: metrics off
	closes []func(context.Context) error
	once   sync.Once
	err    error
}

// NewTelemetry builds the exporters the environment asks for:
//
//   - traces: OTEL_TRACES_EXPORTER (otlp, console, none); unset, otlp when an
//     OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT or
//     OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); plus TOOLPIPE_TRACE.
//   - metrics: OTEL_METRICS_EXPORTER (otlp, none); unset, otlp when an OTLP
//     endpoint is configured (…_ENDPOINT or OTEL_EXPORTER_OTLP_METRICS_ENDPOINT).
//   - OTEL_EXPORTER_OTLP_PROTOCOL (or the per-signal one): http/protobuf, the
//     default, or grpc; the exporters read the other OTEL_EXPORTER_OTLP_* (headers,
//     TLS, timeouts) themselves. OTEL_SDK_DISABLED=true turns everything off.
//
// Shutdown flushes and closes what it started.
func NewTelemetry(ctx context.Context, cfg TelemetryConfig) (*Telemetry, error) {
	env := cfg.Getenv
	if env == nil {
		env = toolenv.Getenv // the OTLP headers are held secrets (HideSecrets)
	}
	if cfg.Stderr == nil {
		cfg.Stderr = os.Stderr
	}
	if cfg.ServiceName == "" {
		cfg.ServiceName = "toolpipe"
	}
	t := &Telemetry{tracer: cfg.TracerProvider, meter: cfg.MeterProvider}
	if strings.EqualFold(env("OTEL_SDK_DISABLED"), "true") {
		return t, nil
	}
	var res *resource.Resource
	lazyResource := func() (*resource.Resource, error) {
		if res != nil {
			return res, nil
		}
		var err error
		res, err = resource.New(ctx, resource.WithAttributes(attribute.String("service.name", cfg.ServiceName)),
			resource.WithFromEnv(), resource.WithTelemetrySDK())
		return res, err
	}
	if t.tracer == nil {
		if err := t.setupTraces(ctx, env, cfg.Stderr, lazyResource); err != nil {
			_ = t.Shutdown(ctx)
			return nil, err
		}
	}
	if t.meter == nil {
		if err := t.setupMetrics(ctx, env, lazyResource); err != nil {
			_ = t.Shutdown(ctx)
			return nil, err
		}
	}
	return t, nil
}

func (t *Telemetry) setupTraces(ctx context.Context, env func(string) string, stderr io.Writer, res func() (*resource.Resource, error)) error {
	var opts []sdktrace.TracerProviderOption
	for _, name := range exporters(env, "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") {
		switch name {
		case "otlp":
			exp, err := otlpTraceExporter(ctx, protocol(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"), otlpHeaders(env, "OTEL_EXPORTER_OTLP_TRACES_HEADERS"))
			if err != nil {
				return err
			}
			opts = append(opts, sdktrace.WithBatcher(exp))
		case "console":
			exp, err := stdouttrace.New(stdouttrace.WithWriter(stderr), stdouttrace.WithPrettyPrint())
			if err != nil {
				return fmt.Errorf("telemetry: console exporter: %w", err)
			}
			opts = append(opts, sdktrace.WithSyncer(exp))
		default:
			return fmt.Errorf("telemetry: OTEL_TRACES_EXPORTER=%s: only otlp, console and none are supported", name)
		}
	}
	if dest := env(TraceEnv); dest != "" {
		w := stderr
		if dest != "stderr" {
			f, err := os.OpenFile(dest, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
			if err != nil {
				return fmt.Errorf("telemetry: %s: %w", TraceEnv, err)
			}
			t.closes = append(t.closes, func(context.Context) error { return f.Close() })
			w = f
		}
		exp, err := stdouttrace.New(stdouttrace.WithWriter(w))
		if err != nil {
			return fmt.Errorf("telemetry: %s: %w", TraceEnv, err)
		}
		// Synchronous: a debugging trace should show a span as soon as it ends.
		opts = append(opts, sdktrace.WithSyncer(exp))
	}
	if len(opts) == 0 {
		return nil
	}
	r, err := res()
	if err != nil {
		return fmt.Errorf("telemetry: resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(append(opts, sdktrace.WithResource(r))...)
	// Providers are shut down before the files their exporters write to are closed.
	t.closes = append([]func(context.Context) error{tp.Shutdown}, t.closes...)
	t.tracer = tp
	return nil
}

func (t *Telemetry) setupMetrics(ctx context.Context, env func(string) string, res func() (*resource.Resource, error)) error {
	names := exporters(env, "OTEL_METRICS_EXPORTER", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")
	if len(names) == 0 {
		return nil
	}
	if len(names) > 1 || names[0] != "otlp" {
		return fmt.Errorf("telemetry: OTEL_METRICS_EXPORTER=%s: only otlp and none are supported", strings.Join(names, ","))
	}
	var exp sdkmetric.Exporter
	var err error
	headers := otlpHeaders(env, "OTEL_EXPORTER_OTLP_METRICS_HEADERS") // telemetry_headers.go
	switch p := protocol(env, "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL"); p {
	case "grpc":
		var opts []otlpmetricgrpc.Option
		if headers != nil {
			opts = append(opts, otlpmetricgrpc.WithHeaders(headers))
		}
		exp, err = otlpmetricgrpc.New(ctx, opts...)
	case "http/protobuf":
		var opts []otlpmetrichttp.Option
		if headers != nil {
			opts = append(opts, otlpmetrichttp.WithHeaders(headers))
		}
		exp, err = otlpmetrichttp.New(ctx, opts...)
	default:
		err = fmt.Errorf("protocol %q: only grpc and http/protobuf are supported", p)
	}
	if err != nil {
		return fmt.Errorf("telemetry: OTLP metrics exporter: %w", err)
	}
	r, err := res()
	if err != nil {
		return fmt.Errorf("telemetry: resource: %w", err)
	}
	// The periodic reader takes its interval from OTEL_METRIC_EXPORT_INTERVAL.
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)), sdkmetric.WithResource(r))
	t.closes = append([]func(context.Context) error{mp.Shutdown}, t.closes...)
	t.meter = mp
	return nil
}

// exporters reads an OTEL_*_EXPORTER list. Unset, it is otlp when an endpoint is
// configured and nothing otherwise: toolpipe exports nothing unless asked to, where
// the OTel default would send to localhost.
func exporters(env func(string) string, listVar, signalEndpointVar string) []string {
	v := strings.TrimSpace(env(listVar))
	if v == "" {
		if env("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || env(signalEndpointVar) != "" {
			return []string{"otlp"}
		}
		return nil
	}
	var out []string
	for _, name := range strings.Split(v, ",") {
		if name = strings.ToLower(strings.TrimSpace(name)); name != "" && name != "none" {
			out = append(out, name)
		}
	}
	return out
}

// protocol is the OTLP protocol in force for a signal: its own variable, else the
// general one, else http/protobuf as the OpenTelemetry specification says.
func protocol(env func(string) string, signalVar string) string {
	for _, v := range []string{signalVar, "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if p := strings.TrimSpace(env(v)); p != "" {
			return p
		}
	}
	return "http/protobuf"
}

func otlpTraceExporter(ctx context.Context, proto string, headers map[string]string) (sdktrace.SpanExporter, error) {
	var exp sdktrace.SpanExporter
	var err error
	switch proto {
	case "grpc":
		var opts []otlptracegrpc.Option
		if headers != nil {
			opts = append(opts, otlptracegrpc.WithHeaders(headers))
		}
		exp, err = otlptracegrpc.New(ctx, opts...)
	case "http/protobuf":
		var opts []otlptracehttp.Option
		if headers != nil {
			opts = append(opts, otlptracehttp.WithHeaders(headers))
		}
		exp, err = otlptracehttp.New(ctx, opts...)
	default:
		err = fmt.Errorf("protocol %q: only grpc and http/protobuf are supported", proto)
	}
	if err != nil {
		return nil, fmt.Errorf("telemetry: OTLP trace exporter: %w", err)
	}
	return exp, nil
}

// StartTrace starts the span that a command's calls to one workflow hang under:
// the client's StartWorkflow, every update and signal it sends (the SDK's
// interceptor writes the span of each into its header, so the workflow's handler
// spans are their children) and, through them, the workflow's activities. Without
// it each update would begin a trace of its own. With tracing off the context is
// returned as it is and the span is a no-op; end it when the command is done.
func (t *Telemetry) StartTrace(ctx context.Context, name string, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	if !t.Tracing() {
		return ctx, trace.SpanFromContext(ctx)
	}
	return t.tracer.Tracer("github.com/toolpipe/toolpipe/internal/plugin").Start(ctx, name, trace.WithAttributes(attrs...))
}

// Tracing reports whether spans are recorded.
func (t *Telemetry) Tracing() bool { return t != nil && t.tracer != nil }

// apply adds the tracing interceptor and the metrics handler to client options; the
// workers created from the client use both. Queries are not traced: `starter run`
// polls the State query for its progress display, a span each time.
func (t *Telemetry) apply(o *client.Options) error {
	if t == nil {
		return nil
	}
	if t.tracer != nil {
		i, err := temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{
			Tracer:              t.tracer.Tracer("go.temporal.io/sdk"),
			DisableQueryTracing: true,
		})
		if err != nil {
			return fmt.Errorf("telemetry: tracing interceptor: %w", err)
		}
		o.Interceptors = append(o.Interceptors, i)
	}
	if t.meter != nil {
		o.MetricsHandler = temporalotel.NewMetricsHandler(temporalotel.MetricsHandlerOptions{
			Meter: t.meter.Meter("go.temporal.io/sdk"),
		})
	}
	return nil
}

// ClientOptions returns o with the tracing interceptor and metrics handler added,
// for clients made outside Connect (tests, other programs).
func (t *Telemetry) ClientOptions(o client.Options) (client.Options, error) {
	err := t.apply(&o)
	return o, err
}

// Shutdown flushes pending spans and metrics and closes the exporters; later calls
// return the first one's result.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	t.once.Do(func() {
		var errs []error
		for _, c := range t.closes {
			errs = append(errs, c(ctx))
		}
		t.err = errors.Join(errs...)
	})
	return t.err
}
