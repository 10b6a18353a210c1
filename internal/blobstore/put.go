package blobstore

import (
	"context"
	"errors"
	"fmt"
	"io"

	"gocloud.dev/blob"
)

// Mode says what a put does when an object is stored under its key already.
type Mode int

const (
	// Replace makes the new object the key's, atomically: a reader sees the old one
	// or the new one, never a mix (conversation heads, read state, partial messages).
	Replace Mode = iota
	// Exclusive stores the object only if the key holds none, and fails with
	// ErrExist otherwise, keeping the first object (tool results, messages,
	// content-addressed payloads and checkpoint objects: an existing object is what
	// an earlier attempt or a replay wrote, and counts as success to the caller).
	Exclusive
)

func (m Mode) String() string {
	if m == Exclusive {
		return "exclusive"
	}
	return "replace"
}

// Put stores data under key.
func (s *Store) Put(ctx context.Context, key Key, data []byte, mode Mode) error {
	if err := checkKey(key); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	w, err := s.Create(ctx, key, mode)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		_ = w.Abort()
		return err
	}
	return w.Commit()
}

// Writer streams an object into the store. Nothing is visible under the key until
// Commit; exactly one of Commit or Abort must be called.
type Writer interface {
	io.Writer
	// Commit makes what was written the key's object, by the writer's Mode: an
	// Exclusive writer whose key is taken fails with ErrExist and stores nothing.
	Commit() error
	// Abort discards what was written; the key is unchanged.
	Abort() error
}

// Create opens a Writer for key. The writer runs under ctx: cancelling it aborts.
// An Exclusive Create fails with ErrExist at once where the store can tell cheaply
// (file://), so a caller does not stream what Commit would drop; elsewhere Commit
// does (the conditional write is decided by the service when the upload ends).
func (s *Store) Create(ctx context.Context, key Key, mode Mode) (Writer, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	if s.root != "" {
		return s.createFile(key, mode)
	}
	wctx, cancel := context.WithCancel(ctx)
	w, err := s.bucket.NewWriter(wctx, key.String(), &blob.WriterOptions{
		IfNotExist:  mode == Exclusive,
		ContentType: "application/octet-stream", // never sniffed: a transcript is not HTML
	})
	if err != nil {
		cancel()
		return nil, s.classify("put", key.String(), err, mode == Exclusive)
	}
	return &bucketWriter{w: w, cancel: cancel, s: s, key: key.String(), mode: mode}, nil
}

// bucketWriter is a gocloud writer: the service makes the object visible on Close,
// and a cancelled context before Close aborts the upload.
type bucketWriter struct {
	w      *blob.Writer
	cancel context.CancelFunc
	s      *Store
	key    string
	mode   Mode
	done   bool
}

func (w *bucketWriter) Write(p []byte) (int, error) {
	if w.done {
		return 0, errors.New("blobstore: write after commit or abort")
	}
	n, err := w.w.Write(p)
	if err != nil {
		return n, w.s.classify("put", w.key, err, w.mode == Exclusive)
	}
	return n, nil
}

func (w *bucketWriter) Commit() error {
	if w.done {
		return fmt.Errorf("blobstore: commit of %q after commit or abort", w.key)
	}
	w.done = true
	defer w.cancel()
	return w.s.classify("put", w.key, w.w.Close(), w.mode == Exclusive)
}

func (w *bucketWriter) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.cancel()
	_ = w.w.Close() // fails with the cancellation; nothing was stored
	return nil
}
