package blobstore

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Writes to a file:// store do not go through gocloud's file driver: its writer
// neither fsyncs nor creates exclusively across processes (it checks with Stat and
// then renames, under a mutex of its own process), and several workers and starters
// share one state directory. A file:// write is what persistence has always done: a
// temp file next to the final name, synced, then hard-linked into place (Exclusive:
// a link never replaces a file, so the first complete object wins) or renamed over
// it (Replace), and the directory synced so the new name survives a crash. Reads,
// listing and deletes go through the driver, which maps keys to the same paths.

// fileBufferSize coalesces the small writes of line-buffered output.
const fileBufferSize = 32 << 10

func (s *Store) createFile(key Key, mode Mode) (Writer, error) {
	path, _ := s.LocalPath(key)
	if mode == Exclusive {
		if _, err := os.Lstat(path); err == nil {
			// Known at once: spare the caller streaming what Commit would drop.
			return nil, &Error{Op: "put", Store: s.url, Key: key.String(), Kind: ErrExist}
		}
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, s.fileError(key, err)
	}
	// The temp name cannot be a key: List skips it (isTempName) and ParseKey refuses it.
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, s.fileError(key, err)
	}
	return &fileWriter{s: s, key: key, path: path, mode: mode, f: f, bw: bufio.NewWriterSize(f, fileBufferSize)}, nil
}

// fileError is a local write failure: permissions, a read-only or full file system.
func (s *Store) fileError(key Key, err error) error {
	return &Error{Op: "put", Store: s.url, Key: key.String(), Kind: ErrUnreachable, Err: err}
}

type fileWriter struct {
	s      *Store
	key    Key
	path   string
	mode   Mode
	f      *os.File
	bw     *bufio.Writer
	closed bool
	nosync bool // a Batch's: Flush makes it durable
}

func (w *fileWriter) Write(p []byte) (int, error) {
	if w.closed {
		return 0, errors.New("blobstore: write after commit or abort")
	}
	n, err := w.bw.Write(p)
	if err != nil {
		return n, w.s.fileError(w.key, err)
	}
	return n, nil
}

func (w *fileWriter) Commit() error {
	if w.closed {
		return fmt.Errorf("blobstore: commit of %q after commit or abort", w.key)
	}
	w.closed = true
	tmp := w.f.Name()
	defer os.Remove(tmp) // after a link the temp name is a second name: drop it
	err := w.bw.Flush()
	if err == nil && !w.nosync {
		// The name must not become visible before the data is durable.
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return w.s.fileError(w.key, err)
	}
	if w.mode == Exclusive {
		err = os.Link(tmp, w.path)
		if errors.Is(err, fs.ErrExist) {
			return &Error{Op: "put", Store: w.s.url, Key: w.key.String(), Kind: ErrExist}
		}
	} else {
		err = os.Rename(tmp, w.path)
	}
	if err != nil {
		return w.s.fileError(w.key, err)
	}
	if w.nosync {
		return nil
	}
	if err := syncDir(filepath.Dir(w.path)); err != nil {
		return w.s.fileError(w.key, err)
	}
	return nil
}

func (w *fileWriter) Abort() error {
	if w.closed {
		return nil
	}
	w.closed = true
	w.f.Close()
	if err := os.Remove(w.f.Name()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return w.s.fileError(w.key, err)
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
