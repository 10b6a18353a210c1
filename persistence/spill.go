package persistence

import (
	"errors"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/toolpipe/toolpipe/internal/preview"
)

// ErrAborted is returned by SpillWriter.Finish after Abort.
var ErrAborted = errors.New("persist: spill writer aborted")

// Result is what a tool call hands back after size control.
type Result struct {
	// Content is the text for the model: the output itself, the persisted-output stub,
	// or a truncated output with a note.
	Content string
	// Size is the size in bytes of the whole output the tool produced.
	Size int64
	// Persisted describes the stored file when the output was persisted, else nil.
	Persisted *preview.Output
	// PersistErr is why the output, over its threshold, could not be persisted; Content
	// is then truncated. It is for logs: the call itself did not fail.
	PersistErr error
}

// Thresholds count characters, as Claude Code's maxResultSizeChars does, not bytes:
// 12,000 CJK characters (36,000 bytes) are under a 30,000-character threshold.

// Process applies the threshold to an output that is already in memory: at most
// threshold characters are returned inline, anything larger is persisted through store and
// replaced by its stub. If persisting fails, the first threshold bytes are returned
// with a note instead of an error. A threshold for which IsUnlimited holds never
// persists (Read). A nil store always truncates.
func Process(store Store, session, toolUseID string, content []byte, structured bool, threshold int) Result {
	size := int64(len(content))
	if IsUnlimited(threshold) || utf8.RuneCount(content) <= threshold {
		return Result{Content: string(content), Size: size}
	}
	err := errNoStore
	if store != nil {
		var p preview.Output
		kept := content[:min(len(content), MaxPersistedBytes)]
		if p, err = store.Persist(session, toolUseID, kept, structured); err == nil {
			msg := preview.Message(p)
			if size > MaxPersistedBytes {
				msg += cappedNote(size)
			}
			return Result{Content: msg, Size: size, Persisted: &p}
		}
	}
	return truncated(content, threshold, size, err)
}

var errNoStore = errors.New("no store configured")

// MaxPersistedBytes caps one persisted output, as Claude Code does: a command that
// prints 2 GB keeps its first 64 MiB on disk and the model is told the rest was
// dropped.
const MaxPersistedBytes = 64 << 20

// cappedNote is added to the stub of an output over MaxPersistedBytes.
func cappedNote(size int64) string {
	return fmt.Sprintf("\n[The output was %s; only its first %s were saved to the file above.]", preview.FormatSize(size), preview.FormatSize(MaxPersistedBytes))
}

// truncated is the degraded result: the first limit characters of kept, cut so as
// not to split a character, and a note the model can act on.
func truncated(kept []byte, limit int, size int64, err error) Result {
	n := preview.RuneBoundary(kept, charsPrefix(kept, limit))
	return Result{
		Content: fmt.Sprintf("%s\n[output truncated at %d bytes of %d: could not persist the full output: %v]",
			kept[:n], n, size, err),
		Size:       size,
		PersistErr: err,
	}
}

// SpillWriter collects a tool's streamed output under a threshold in characters. Up to the
// threshold it holds the output in memory; past it, it opens the result file through
// the Store, writes what it held, and streams the rest straight to the file. Memory
// stays near threshold plus one write buffer however much the tool prints, including
// when persisting fails (then it only counts the bytes it drops).
//
// A threshold for which IsUnlimited holds buffers everything and never persists: it
// is for tools whose output is bounded by other means (Read).
//
// Write never fails because of the Store, so a command piping into it is never killed
// by a full disk. It is safe for concurrent use (stdout and stderr of one command).
type SpillWriter struct {
	store      Store
	session    string
	toolUseID  string
	structured bool
	limit      int

	mu       sync.Mutex
	held     []byte // the first limit characters; kept after spilling for the fallback
	heldN    int    // characters in held
	size     int64
	chars    int64  // characters written
	w        Writer // non-nil while spilling
	written  int64  // bytes sent to w, at most MaxPersistedBytes
	err      error  // why persisting failed; from then on bytes are only counted
	finished bool
	aborted  bool
	result   Result
}

// NewSpillWriter returns a SpillWriter for one tool call. Errors about store, ids or
// the disk are reported by Finish in Result.PersistErr, never by Write.
func NewSpillWriter(store Store, session, toolUseID string, structured bool, threshold int) *SpillWriter {
	if IsUnlimited(threshold) {
		threshold = Unlimited
	}
	return &SpillWriter{store: store, session: session, toolUseID: toolUseID, structured: structured, limit: threshold}
}

// Write implements io.Writer. It reports len(p) and no error unless the writer was
// already finished or aborted.
func (s *SpillWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.finished || s.aborted {
		return 0, errors.New("persist: write to a finished spill writer")
	}
	s.size += int64(len(p))
	s.chars += int64(countChars(p))
	take := charsPrefix(p, s.limit-s.heldN)
	s.held = append(s.held, p[:take]...)
	s.heldN += countChars(p[:take])
	if s.chars <= int64(s.limit) || s.err != nil {
		return len(p), nil
	}
	if s.w == nil {
		if s.err = s.open(); s.err != nil {
			return len(p), nil
		}
		// held already contains p[:take]; the file gets everything exactly once.
		if s.err = s.write(s.held); s.err != nil {
			return len(p), nil
		}
	}
	s.err = s.write(p[take:])
	return len(p), nil
}

func (s *SpillWriter) open() error {
	if s.store == nil {
		return errNoStore
	}
	w, err := s.store.Create(s.session, s.toolUseID, s.structured)
	if err != nil {
		return err
	}
	s.w = w
	return nil
}

// write sends b to the file and gives the file up on the first error, so that the
// rest of the output is only counted.
func (s *SpillWriter) write(b []byte) error {
	b = b[:min(int64(len(b)), MaxPersistedBytes-s.written)]
	if len(b) == 0 {
		return nil
	}
	s.written += int64(len(b))
	if _, err := s.w.Write(b); err != nil {
		_ = s.w.Abort()
		s.w = nil
		return err
	}
	return nil
}

// Finish ends the output and returns the result: the output inline when it fits the
// threshold, the persisted-output stub when it was stored, or the first threshold
// bytes with a truncation note when it could not be stored. The error is non-nil only
// after Abort; a failed store is reported in Result.PersistErr. Later calls return the
// same result.
func (s *SpillWriter) Finish() (Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.aborted {
		return Result{}, ErrAborted
	}
	if s.finished {
		return s.result, nil
	}
	s.finished = true
	switch {
	case s.chars <= int64(s.limit):
		s.result = Result{Content: string(s.held), Size: s.size}
	case s.err != nil:
		s.result = truncated(s.held, s.limit, s.size, s.err)
	default:
		p, err := s.w.Commit()
		s.w = nil
		if err != nil {
			s.result = truncated(s.held, s.limit, s.size, err)
		} else {
			msg := preview.Message(p)
			if s.size > MaxPersistedBytes {
				msg += cappedNote(s.size)
			}
			s.result = Result{Content: msg, Size: s.size, Persisted: &p}
		}
	}
	s.held = nil
	return s.result, nil
}

// Abort drops the output and any partly written file, for a call that is cancelled
// before it finishes; the tool_use_id stays free for a retry.
func (s *SpillWriter) Abort() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.finished || s.aborted {
		return nil
	}
	s.aborted = true
	s.held = nil
	if s.w != nil {
		err := s.w.Abort()
		s.w = nil
		return err
	}
	return nil
}

// countChars counts the characters of UTF-8 text: the bytes that start one. A
// character split between two writes is counted once, with its first byte.
func countChars(b []byte) int {
	n := 0
	for _, c := range b {
		if c&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// charsPrefix returns how many bytes of b hold its first n characters, with the
// continuation bytes of the last one.
func charsPrefix(b []byte, n int) int {
	if n <= 0 {
		return 0
	}
	seen := 0
	for i, c := range b {
		if c&0xC0 != 0x80 {
			if seen == n {
				return i
			}
			seen++
		}
	}
	return len(b)
}
