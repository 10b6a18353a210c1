package activities

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/hooks"
)

// transcriptDedupWindow is how much of the end of a transcript is searched for the
// entries about to be appended: a retried append wrote them last, so they can only
// be near the end, and a long session's file is never read whole.
const transcriptDedupWindow = 1 << 20

// AppendTranscript appends entries to a session's transcript (Claude Code's JSONL
// format, the file hooks get as transcript_path), creating it and its directory as
// needed. An entry whose uuid is already near the end of the file is skipped, so a
// retried activity writes each entry once.
func (a *Activities) AppendTranscript(ctx context.Context, in hooks.TranscriptAppend) error {
	if !filepath.IsAbs(in.Path) {
		return temporal.NewApplicationErrorWithOptions(fmt.Sprintf("transcript: path %q is not absolute", in.Path),
			contract.ErrBadCall, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	if err := os.MkdirAll(filepath.Dir(in.Path), 0o700); err != nil {
		return fmt.Errorf("transcript: %w", err)
	}
	share, err := a.transcriptShared(ctx, in) // persisted_fetch.go
	if err != nil {
		return fmt.Errorf("transcript: %w", err)
	}
	f, err := os.OpenFile(in.Path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("transcript: %w", err)
	}
	defer f.Close()
	tail, err := readTail(f, transcriptDedupWindow)
	if err != nil {
		return fmt.Errorf("transcript: %w", err)
	}
	var buf bytes.Buffer
	for _, e := range in.Entries {
		if bytes.Contains(tail, []byte(`"uuid":"`+e.UUID+`"`)) {
			continue
		}
		line, err := json.Marshal(e)
		if err != nil {
			return temporal.NewApplicationErrorWithOptions("transcript: "+err.Error(), contract.ErrBadCall,
				temporal.ApplicationErrorOptions{NonRetryable: true})
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	if buf.Len() == 0 {
		if share != nil { // an earlier attempt appended; its copy may not have been sent
			if err := share(); err != nil {
				return fmt.Errorf("transcript: %w", err)
			}
		}
		return nil
	}
	// One write of whole lines: O_APPEND keeps concurrent appenders' lines whole.
	if _, err := f.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("transcript: %w", err)
	}
	if share != nil {
		if err := share(); err != nil {
			return fmt.Errorf("transcript: %w", err)
		}
	}
	return nil
}

// readTail returns the last n bytes of f.
func readTail(f *os.File, n int64) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	off := max(st.Size()-n, 0)
	b := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && err != io.EOF {
		return nil, err
	}
	return b, nil
}
