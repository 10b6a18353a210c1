package blobstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Batch is puts whose durability is settled once, by Flush, for objects that
// nothing refers to until a later durable put (a checkpoint's subtree, before its
// root): on file:// each is written and linked into place without an fsync of its
// own, and Flush syncs the store's file system once (syncfs), which costs a fraction
// of an fsync per object (measured: 16 objects, 8.5 ms with an fsync each, 3.6 ms
// with one syncfs). On the services a put is durable when it returns, and Flush does
// nothing. Objects are visible as soon as their put returns, durable after Flush.
type Batch struct {
	s *Store
}

// Batch starts a batch of puts.
func (s *Store) Batch() *Batch { return &Batch{s: s} }

// Put is Store.Put without the wait for durability on file://.
func (b *Batch) Put(ctx context.Context, key Key, data []byte, mode Mode) error {
	if b.s.root == "" {
		return b.s.Put(ctx, key, data, mode)
	}
	if err := checkKey(key); err != nil {
		return err
	}
	w, err := b.s.createFile(key, mode)
	if err != nil {
		return err
	}
	w.(*fileWriter).nosync = true
	if _, err := w.Write(data); err != nil {
		_ = w.Abort()
		return err
	}
	return w.Commit()
}

// PutFile stores the bytes of the local file path under key, Exclusive: for a file
// that never changes once written (a git object). On a file:// store on the same
// file system the file is hard-linked into place, which is atomic and exclusive
// like any put here and writes no data a second time; otherwise it is read and put.
func (b *Batch) PutFile(ctx context.Context, key Key, path string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if dst, ok := b.s.LocalPath(key); ok {
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return b.s.fileError(key, err)
		}
		switch err := os.Link(path, dst); {
		case err == nil:
			return nil
		case errors.Is(err, fs.ErrExist):
			return &Error{Op: "put", Store: b.s.url, Key: key.String(), Kind: ErrExist}
		}
		// Another file system (EXDEV), or one without hard links: copy.
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("blobstore: put %s from %s: %w", key, path, err)
	}
	return b.Put(ctx, key, data, Exclusive)
}

// Flush makes every put of the batch durable.
func (b *Batch) Flush(ctx context.Context) error {
	if b.s.root == "" {
		return nil
	}
	d, err := os.Open(b.s.root)
	if err != nil {
		return &Error{Op: "sync", Store: b.s.url, Kind: ErrUnreachable, Err: err}
	}
	defer d.Close()
	if err := unix.Syncfs(int(d.Fd())); err != nil {
		return &Error{Op: "sync", Store: b.s.url, Kind: ErrUnreachable, Err: fmt.Errorf("syncfs: %w", err)}
	}
	return nil
}
