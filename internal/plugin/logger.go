package plugin

import (
	"io"
	"log/slog"

	"go.temporal.io/sdk/log"
)

// NewLogger is the log of a toolpipe process: slog at level (debug, info, warn,
// error; anything else is warn) as text (key=value) or, with format "json", one
// JSON object a line for log collectors. The configuration validates both.
func NewLogger(w io.Writer, level, format string) *slog.Logger {
	l := slog.LevelWarn
	_ = l.UnmarshalText([]byte(level))
	opts := &slog.HandlerOptions{Level: l}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// newSDKLogger adapts slog to the SDK's logger interface, so the SDK's logs follow
// the configured level and handler.
func newSDKLogger(l *slog.Logger) log.Logger {
	if l == nil {
		l = slog.Default()
	}
	return log.NewStructuredLogger(l)
}
