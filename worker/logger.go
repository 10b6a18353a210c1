package worker

import (
	"log/slog"

	"go.temporal.io/sdk/log"
)

// newSDKLogger adapts slog to the SDK's logger interface, so the SDK's logs follow
// the configured level and handler.
func newSDKLogger(l *slog.Logger) log.Logger {
	if l == nil {
		l = slog.Default()
	}
	return log.NewStructuredLogger(l)
}
