package persistence

import (
	"fmt"
	"io"

	"github.com/toolpipe/toolpipe/internal/preview"
)

// Store saves the full output of a tool call, once per tool_use_id.
//
// Implementations must make an existing result win: when a result for the id already
// exists (written by an earlier attempt or a replay), Persist and Commit succeed, keep
// the first content, and describe it rather than the new one.
type Store interface {
	// Persist writes content for toolUseID of session exclusively; an existing result is
	// success (an earlier attempt or replay wrote it) and the first content is kept.
	Persist(session, toolUseID string, content []byte, structured bool) (preview.Output, error)
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
	Commit() (preview.Output, error)
	// Abort discards what was written; the tool_use_id stays free.
	Abort() error
}

// validateName is preview.ValidateName with this package's "persist: " prefix: a
// session id or tool_use_id must be one path element inside the state directory.
func validateName(kind, s string) error {
	if err := preview.ValidateName(kind, s); err != nil {
		return fmt.Errorf("persist: %w", err)
	}
	return nil
}
