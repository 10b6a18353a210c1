package persistence

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxNameBytes bounds a session id or tool_use_id; it keeps the path under common
// file-name limits (255 bytes) with room for the extension and temp-file decoration.
const MaxNameBytes = 200

// ErrInvalidName is wrapped by every error about an unusable session id or
// tool_use_id, so callers can tell a programming error from an I/O failure.
var ErrInvalidName = errors.New("invalid name")

// Store saves the full output of a tool call, once per tool_use_id.
//
// Implementations must make an existing result win: when a result for the id already
// exists (written by an earlier attempt or a replay), Persist and Commit succeed, keep
// the first content, and describe it rather than the new one.
type Store interface {
	// Persist writes content for toolUseID of session exclusively; an existing result is
	// success (an earlier attempt or replay wrote it) and the first content is kept.
	Persist(session, toolUseID string, content []byte, structured bool) (Persisted, error)
	// Create opens an exclusive writer for output that is streamed rather than held in
	// memory; the result becomes visible only on Commit, under the same existing-wins
	// rule as Persist.
	Create(session, toolUseID string, structured bool) (Writer, error)
}

// Writer receives a streamed result. Exactly one of Commit or Abort must be called,
// or a temp file may be left behind.
type Writer interface {
	io.Writer
	// Commit makes the written output the result for its tool_use_id, unless one already
	// exists, and describes whichever result is now stored.
	Commit() (Persisted, error)
	// Abort discards what was written; the tool_use_id stays free.
	Abort() error
}

// Persisted describes a stored result: enough to build the stub the model sees
// without reading the file again.
type Persisted struct {
	// Path is the absolute path of the stored file, which the model can Read.
	Path string
	// Size is the size in bytes of the stored output.
	Size int64
	// Structured is true when the output is JSON (stored as .json).
	Structured bool
	// Preview is the start of the stored output, as cut by Preview.
	Preview string
	// HasMore is true when the output continues past Preview.
	HasMore bool
	// Existed is true when the result had already been stored by an earlier attempt and
	// this call's content was discarded.
	Existed bool
}

// ValidateName reports whether s can be used as a session id or tool_use_id, that is
// as a single path element that stays inside the state directory.
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
	return fmt.Errorf("persist: %w: %s %q: %s", ErrInvalidName, kind, truncateForError(s), reason)
}

// truncateForError keeps a hostile id from flooding logs and the model's context.
func truncateForError(s string) string {
	const keep = 64
	if len(s) <= keep {
		return s
	}
	return s[:runeBoundary([]byte(s), keep)] + "…"
}
