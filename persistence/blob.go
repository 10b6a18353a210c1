package persistence

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/toolpipe/toolpipe/internal/blobstore"
)

// Everything a session needs on another host (its conversation, read state,
// persisted outputs, large payloads) is kept in one blob store (DESIGN §11,
// internal/blobstore). The embedded default is a file:// store rooted at the state
// directory, whose keys are exactly the paths this package always wrote, so a single
// machine sees no change; a fleet without a shared disk names an S3-compatible (or
// GCS, Azure) store with blob-url and every host reads what any host wrote.

// OpenStore opens the blob store rawURL names; empty is the file:// store rooted at
// stateDir (absolute). A store that cannot be used fails here, naming its URL, so a
// worker with a wrong blob-url fails at start instead of looking empty.
func OpenStore(ctx context.Context, rawURL, stateDir string) (*blobstore.Store, error) {
	s, err := blobstore.Open(ctx, blobstore.Config{URL: rawURL, StateDir: stateDir})
	if err != nil {
		return nil, fmt.Errorf("persist: %w", err)
	}
	return s, nil
}

// defaultStore is the file:// store rooted at stateDir: what the constructors that
// take only a state directory use.
func defaultStore(stateDir string) (*blobstore.Store, error) {
	dir, err := stateRoot(stateDir)
	if err != nil {
		return nil, err
	}
	return OpenStore(context.Background(), "", dir)
}

// notFound is a missing object: it matches both blobstore.ErrNotFound and
// fs.ErrNotExist, which the callers of this package have always tested.
type notFound struct{ err error }

func (e *notFound) Error() string { return e.err.Error() }
func (e *notFound) Unwrap() error { return e.err }
func (e *notFound) Is(target error) bool {
	return target == fs.ErrNotExist
}

// storeErr wraps a store failure with the package's prefix.
func storeErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, blobstore.ErrNotFound) {
		return &notFound{err: fmt.Errorf("persist: %w", err)}
	}
	return fmt.Errorf("persist: %w", err)
}

// getJSON decodes the object under key into v; a missing object matches
// fs.ErrNotExist and blobstore.ErrNotFound.
func getJSON(s *blobstore.Store, key blobstore.Key, v any) error {
	data, err := s.Get(context.Background(), key)
	if err != nil {
		return storeErr(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("persist: %s in %s: %w", key, s.URL(), err)
	}
	return nil
}

// keyErr turns a key the scheme refuses into this package's invalid-name error, so
// that callers testing persisted.ErrInvalidName keep working.
func keyErr(k blobstore.Key, err error) (blobstore.Key, error) {
	if err != nil {
		return k, fmt.Errorf("persist: %w", err)
	}
	return k, nil
}
