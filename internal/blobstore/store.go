package blobstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"gocloud.dev/blob"
)

// Config configures a Store.
type Config struct {
	// URL picks the service and the bucket: file:///dir, s3://bucket?endpoint=…,
	// gs://bucket, azblob://container. Empty is DefaultURL(StateDir).
	URL string
	// StateDir is the state directory, absolute; used when URL is empty.
	StateDir string
	// OpTimeout bounds each call that moves a known, small amount of data (Get, Put
	// of a byte slice, Stat, Delete, one page of List), so a store that accepts
	// connections and never answers fails the call instead of hanging it. Streams
	// (Create, NewReader) run under the caller's context alone. Zero is 60 s.
	OpTimeout time.Duration
}

const defaultOpTimeout = 60 * time.Second

// Store is an opened blob store. It is safe for concurrent use, and several
// processes (on one host or many) may use the same store at once.
type Store struct {
	bucket  *blob.Bucket
	url     string // redacted, for messages
	scheme  string
	root    string // the directory of a file:// store; empty for the others
	timeout time.Duration
}

// Open opens the store cfg names and checks that it can be used: the bucket exists
// and answers (a file:// root is created). A store that cannot be used is an Error
// of kind ErrUnreachable naming the URL.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	raw := cfg.URL
	if raw == "" {
		if cfg.StateDir == "" || !filepath.IsAbs(cfg.StateDir) {
			return nil, fmt.Errorf("blobstore: no store URL and the state directory %q is not absolute", cfg.StateDir)
		}
		raw = DefaultURL(cfg.StateDir)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return nil, fmt.Errorf("blobstore: store URL %q is not a URL (file:///dir, s3://bucket, gs://bucket, azblob://container)", Redact(raw))
	}
	s := &Store{url: redact(u), scheme: u.Scheme, timeout: cfg.OpTimeout}
	if s.timeout <= 0 {
		s.timeout = defaultOpTimeout
	}
	if u.Scheme == "file" {
		if s.root, err = fileRoot(u); err != nil {
			return nil, fmt.Errorf("blobstore: %w", err)
		}
		u = normalizeFile(u)
	}
	octx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	b, err := blob.OpenBucket(octx, u.String())
	if err != nil {
		// A bad parameter or an unknown scheme: the URL is wrong, not the store.
		return nil, fmt.Errorf("blobstore: open %s: %w", s.url, err)
	}
	s.bucket = b
	ok, err := b.IsAccessible(octx)
	if err == nil && !ok {
		err = errors.New("the bucket or container does not exist")
	}
	if err != nil {
		b.Close()
		return nil, &Error{Op: "open", Store: s.url, Kind: ErrUnreachable, Err: err}
	}
	return s, nil
}

// URL is the store's URL without credentials, as messages show it.
func (s *Store) URL() string { return s.url }

// Close releases the store's connections.
func (s *Store) Close() error { return s.bucket.Close() }

// LocalPath is the file holding key's object when the store is a directory on this
// host (file://), which a tool can read directly; ok is false for remote stores.
func (s *Store) LocalPath(key Key) (path string, ok bool) {
	if s.root == "" || key.IsZero() {
		return "", false
	}
	return filepath.Join(s.root, filepath.FromSlash(key.String())), true
}

// LocalRoot is the directory of a file:// store; ok is false for remote stores.
func (s *Store) LocalRoot() (dir string, ok bool) { return s.root, s.root != "" }

func checkKey(key Key) error {
	if key.IsZero() {
		return fmt.Errorf("blobstore: %w: the zero Key", ErrInvalidKey)
	}
	return nil
}

// Get returns the object under key.
func (s *Store) Get(ctx context.Context, key Key) ([]byte, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	data, err := s.bucket.ReadAll(ctx, key.String())
	return data, s.classify("get", key.String(), err, false)
}

// NewReader streams the object under key; the caller closes it.
func (s *Store) NewReader(ctx context.Context, key Key) (io.ReadCloser, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	r, err := s.bucket.NewReader(ctx, key.String(), nil)
	if err != nil {
		return nil, s.classify("get", key.String(), err, false)
	}
	return &reader{r: r, s: s, key: key.String()}, nil
}

// reader classifies the errors of a streamed read as the other operations do.
type reader struct {
	r   *blob.Reader
	s   *Store
	key string
}

func (r *reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		err = r.s.classify("get", r.key, err, false)
	}
	return n, err
}

func (r *reader) Close() error { return r.r.Close() }

// Attrs describes a stored object.
type Attrs struct {
	Size    int64
	ModTime time.Time
}

// Stat describes the object under key.
func (s *Store) Stat(ctx context.Context, key Key) (Attrs, error) {
	if err := checkKey(key); err != nil {
		return Attrs{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	a, err := s.bucket.Attributes(ctx, key.String())
	if err != nil {
		return Attrs{}, s.classify("stat", key.String(), err, false)
	}
	return Attrs{Size: a.Size, ModTime: a.ModTime}, nil
}

// Exists reports whether an object is stored under key; only a store that cannot
// answer is an error.
func (s *Store) Exists(ctx context.Context, key Key) (bool, error) {
	_, err := s.Stat(ctx, key)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// Delete removes the object under key; a missing one is ErrNotFound.
func (s *Store) Delete(ctx context.Context, key Key) error {
	if err := checkKey(key); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	return s.classify("delete", key.String(), s.bucket.Delete(ctx, key.String()), false)
}

// Entry is one object List found.
type Entry struct {
	Key     string
	Size    int64
	ModTime time.Time
}

// List yields every object whose key starts with prefix, in key order (a prefix
// from keys.go ends in "/" and lists one subtree). Objects still being written on
// a file:// store (their temporary files) are not listed. A failure ends the
// sequence with the error.
func (s *Store) List(ctx context.Context, prefix string) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		it := s.bucket.List(&blob.ListOptions{Prefix: prefix})
		for {
			pctx, cancel := context.WithTimeout(ctx, s.timeout)
			obj, err := it.Next(pctx)
			cancel()
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(Entry{}, s.classify("list", prefix, err, false))
				return
			}
			if obj.IsDir || isTempName(obj.Key) {
				continue
			}
			if !yield(Entry{Key: obj.Key, Size: obj.Size, ModTime: obj.ModTime}, nil) {
				return
			}
		}
	}
}

// isTempName reports whether key is a file:// store's temporary file (put_file.go
// names them ".<final name>.tmp-<random>", as persistence does; its payload driver
// ".payload-<random>").
func isTempName(key string) bool {
	base := key[strings.LastIndexByte(key, '/')+1:]
	return strings.HasPrefix(base, ".") && (strings.Contains(base, ".tmp-") || strings.HasPrefix(base, ".payload-"))
}
