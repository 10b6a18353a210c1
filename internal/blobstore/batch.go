package blobstore

import (
	"context"
	"fmt"
	"os"

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
