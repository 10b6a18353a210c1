package devserver

import (
	"context"
	"log/slog"
	"strings"
	"sync/atomic"

	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/log/tag"
)

// slogLogger adapts the server's tag-based logger interface to log/slog, so
// server records land wherever the embedding program sends its own logs.
type slogLogger struct {
	l *slog.Logger
}

// noise lists the starts of warnings the server logs on every start that
// say nothing about this setup's health: toolpipe does not enable the HTTP
// API, so being told that Nexus over HTTP is unavailable is expected.
var noise = []string{
	"HTTP API port has not been set",
}

var (
	_ log.Logger      = slogLogger{}
	_ log.WithLogger  = slogLogger{}
	_ log.SLogWrapper = slogLogger{}
)

// newServerLogger returns a server logger that drops records below minLevel, and
// all records once quiet is set. The filter lives in the slog handler rather
// than in the adapter so that the *slog.Logger handed out through SLog (the
// server gives it to its Nexus HTTP handlers) is filtered the same way.
func newServerLogger(base *slog.Logger, minLevel slog.Leveler, quiet *atomic.Bool) slogLogger {
	h := &levelHandler{next: base.Handler(), min: minLevel, quiet: quiet}
	return slogLogger{l: slog.New(h).With("component", "temporal")}
}

func (s slogLogger) Debug(msg string, tags ...tag.Tag) { s.log(slog.LevelDebug, msg, tags) }
func (s slogLogger) Info(msg string, tags ...tag.Tag)  { s.log(slog.LevelInfo, msg, tags) }
func (s slogLogger) Warn(msg string, tags ...tag.Tag)  { s.log(slog.LevelWarn, msg, tags) }
func (s slogLogger) Error(msg string, tags ...tag.Tag) { s.log(slog.LevelError, msg, tags) }

// DPanic only panics in the server's development builds; in production it is
// an error report, so it is one here too.
func (s slogLogger) DPanic(msg string, tags ...tag.Tag) { s.log(slog.LevelError, msg, tags) }

// Panic and Fatal must not return: the server calls them when it cannot go on
// (typically a listener that failed to bind) and the code after the call
// assumes it never runs. The zap logger would exit the process; panicking
// instead lets Start recover the ones raised while it builds the server and
// report them as errors, without killing the embedding program.
func (s slogLogger) Panic(msg string, tags ...tag.Tag) {
	s.log(slog.LevelError, msg, tags)
	panic(serverPanic{msg: msg})
}

func (s slogLogger) Fatal(msg string, tags ...tag.Tag) {
	s.log(slog.LevelError, msg, tags)
	panic(serverPanic{msg: msg})
}

func (s slogLogger) With(tags ...tag.Tag) log.Logger {
	return slogLogger{l: s.l.With(tagsToArgs(tags)...)}
}

func (s slogLogger) SLog() *slog.Logger { return s.l }

func (s slogLogger) log(level slog.Level, msg string, tags []tag.Tag) {
	ctx := context.Background()
	if !s.l.Enabled(ctx, level) {
		return // skip converting tags, which is the costly part
	}
	for _, n := range noise {
		if strings.HasPrefix(msg, n) {
			return
		}
	}
	s.l.Log(ctx, level, msg, tagsToArgs(tags)...)
}

func tagsToArgs(tags []tag.Tag) []any {
	args := make([]any, len(tags))
	for i, t := range tags {
		args[i] = slog.Any(t.Key(), t.Value())
	}
	return args
}

// serverPanic marks a panic raised by the server through Fatal or Panic, so
// Start can tell it from a bug and turn it into an error.
type serverPanic struct{ msg string }

// levelHandler drops records below a minimum level whatever the wrapped
// handler would accept, since the server is far too chatty at info level;
// and it drops everything once quiet is set, because while the services stop
// one after the other, each reports the others' absence as errors and
// warnings that mean nothing.
type levelHandler struct {
	next  slog.Handler
	min   slog.Leveler
	quiet *atomic.Bool
}

func (h *levelHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return !h.quiet.Load() && level >= h.min.Level() && h.next.Enabled(ctx, level)
}

func (h *levelHandler) Handle(ctx context.Context, r slog.Record) error {
	return h.next.Handle(ctx, r)
}

func (h *levelHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &levelHandler{next: h.next.WithAttrs(attrs), min: h.min, quiet: h.quiet}
}

func (h *levelHandler) WithGroup(name string) slog.Handler {
	return &levelHandler{next: h.next.WithGroup(name), min: h.min, quiet: h.quiet}
}
