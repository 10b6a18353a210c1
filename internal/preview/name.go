package preview

import (
	"errors"
	"fmt"
	"strings"
)

// MaxNameBytes bounds a session id, agent id or tool_use_id: each names a file or
// directory of the state directory, and this keeps the path under common file-name
// limits (255 bytes) with room for the extension and temp-file decoration.
const MaxNameBytes = 200

// ErrInvalidName is wrapped by every error about an unusable name, so callers can
// tell a programming error from an I/O failure.
var ErrInvalidName = errors.New("invalid name")

// ValidateName reports whether s can be used as a session id, agent id or
// tool_use_id, that is as a single path element that stays inside the state
// directory; kind names it in the error ("tool_use id").
func ValidateName(kind, s string) error {
	reason := ""
	switch {
	case s == "":
		reason = "empty"
	case len(s) > MaxNameBytes:
		reason = fmt.Sprintf("longer than %d bytes", MaxNameBytes)
	case strings.ContainsAny(s, `/\`):
		// Both separators: a backslash is harmless on Unix, but an id that means a
		// different path on another OS is not one we want to store.
		reason = "contains a path separator"
	case strings.Contains(s, ".."), s == ".":
		reason = "contains a dot path element"
	case strings.IndexByte(s, 0) >= 0:
		reason = "contains a NUL byte"
	default:
		return nil
	}
	return fmt.Errorf("%w: %s %q: %s", ErrInvalidName, kind, truncateForError(s), reason)
}

// truncateForError keeps a hostile id from flooding logs and the model's context.
func truncateForError(s string) string {
	const keep = 64
	if len(s) <= keep {
		return s
	}
	return s[:RuneBoundary([]byte(s), keep)] + "…"
}
