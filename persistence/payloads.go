package persistence

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"

	"github.com/toolpipe/toolpipe/internal/blobstore"
)

// PayloadThreshold is the payload size above which Temporal payloads (tool inputs,
// results, workflow results) are kept in the payload store instead of history. It is
// well under Temporal's 2 MB blob limit, so a 5 MB Write cannot fail a workflow task.
const PayloadThreshold = 128 << 10

// MaxPayloadBytes bounds one payload in the store. Tool inputs are dropped before
// they are sent when they are over their tool's limit (16 MiB at most:
// tool.DropOversizeInput), so only a message of several inputs near that limit
// comes close; a payload over it is refused before it is written, and a stored
// one over it (from a client that does not drop) before it is read, so that no
// process holds and decodes hundreds of megabytes for a call that is refused.
const MaxPayloadBytes = 64 << 20

// PayloadTooLargeError is a payload over MaxPayloadBytes.
type PayloadTooLargeError struct {
	Size int64
}

func (e *PayloadTooLargeError) Error() string {
	return fmt.Sprintf("persist: a payload of %d bytes is over the payload store's limit of %d bytes (64 MiB); "+
		"a tool input is at most 16 MiB: send large messages one block at a time (starter run --stream) or write large files with a command", e.Size, MaxPayloadBytes)
}

// PayloadDriver is a converter.StorageDriver that keeps large Temporal payloads as
// files, named by the SHA-256 of their bytes: storing is idempotent (a retry or a
// replay writes the same name) and identical payloads (a Write's content passed
// from the turn to its activity) are stored once. Claims in history hold only the
// hash. Every process that reads a turn's history (client, workers) must see the
// same directory.
type PayloadDriver struct {
	dir   string
	store *blobstore.Store // when set, payloads are its payloads/<sha256> keys and dir is unused
}

const payloadClaimKey = "sha256"

// NewPayloadDriver stores payloads under dir (created if missing).
func NewPayloadDriver(dir string) (*PayloadDriver, error) {
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("persist: payload dir %q must be absolute", dir)
	}
	return &PayloadDriver{dir: dir}, nil
}

// NewBlobPayloadDriver stores payloads in store under payloads/<sha256>: on the
// default file:// store that is <state dir>/payloads/, as NewPayloadDriver; on a
// shared store every client and worker of a fleet reads what any of them wrote.
func NewBlobPayloadDriver(store *blobstore.Store) *PayloadDriver {
	return &PayloadDriver{store: store}
}

// ExternalStorage returns the SDK configuration that routes large payloads here.
func (d *PayloadDriver) ExternalStorage() converter.ExternalStorage {
	return converter.ExternalStorage{Drivers: []converter.StorageDriver{d}, PayloadSizeThreshold: PayloadThreshold}
}

// Name identifies this driver in history claims; it must never change.
func (d *PayloadDriver) Name() string { return "toolpipe-fs" }

// Type is the driver kind.
func (d *PayloadDriver) Type() string { return "filesystem" }

// Store writes each payload to <dir>/<sha256> unless it is already there.
func (d *PayloadDriver) Store(ctx converter.StorageDriverStoreContext, payloads []*commonpb.Payload) ([]converter.StorageDriverClaim, error) {
	if d.store == nil {
		if err := os.MkdirAll(d.dir, 0o700); err != nil {
			return nil, fmt.Errorf("persist: payload dir: %w", err)
		}
	}
	claims := make([]converter.StorageDriverClaim, len(payloads))
	for i, p := range payloads {
		if n := proto.Size(p); n > MaxPayloadBytes {
			return nil, &PayloadTooLargeError{Size: int64(n)}
		}
		data, err := proto.MarshalOptions{Deterministic: true}.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("persist: encode payload: %w", err)
		}
		sum := sha256.Sum256(data)
		name := hex.EncodeToString(sum[:])
		if err := d.write(name, data); err != nil {
			return nil, err
		}
		claims[i] = converter.StorageDriverClaim{ClaimData: map[string]string{payloadClaimKey: name}}
	}
	return claims, nil
}

// write stores data under name atomically: a temp file linked into place, so a
// crash never leaves a partial payload under a valid name.
func (d *PayloadDriver) write(name string, data []byte) error {
	if d.store != nil {
		return d.put(name, data)
	}
	final := filepath.Join(d.dir, name)
	if _, err := os.Stat(final); err == nil {
		// Stored again: touch it, so its time says when a workflow last referenced it
		// (retention.go removes only payloads older than every history).
		now := time.Now()
		_ = os.Chtimes(final, now, now)
		return nil
	}
	tmp, err := os.CreateTemp(d.dir, ".payload-*")
	if err != nil {
		return fmt.Errorf("persist: payload: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("persist: payload: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("persist: payload: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("persist: payload: %w", err)
	}
	if err := os.Link(tmp.Name(), final); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("persist: payload: %w", err)
	}
	return nil
}

// Retrieve reads the payloads back and checks they are the ones the claims name.
func (d *PayloadDriver) Retrieve(ctx converter.StorageDriverRetrieveContext, claims []converter.StorageDriverClaim) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(claims))
	for i, c := range claims {
		name := c.ClaimData[payloadClaimKey]
		if len(name) != 64 {
			return nil, fmt.Errorf("persist: payload claim %v has no valid %s", c.ClaimData, payloadClaimKey)
		}
		var data []byte
		var err error
		if d.store != nil {
			data, err = d.get(name)
		} else {
			data, err = readPayload(filepath.Join(d.dir, name))
		}
		var big *PayloadTooLargeError
		if errors.As(err, &big) {
			return nil, fmt.Errorf("persist: payload %s: %w", name, err)
		}
		if err != nil && d.store != nil {
			return nil, fmt.Errorf("persist: payload %s: %w (does every worker and client use the same blob-url?)", name, err)
		}
		if err != nil {
			return nil, fmt.Errorf("persist: payload %s: %w (is the payload directory shared by every worker and client?)", name, err)
		}
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != name {
			return nil, fmt.Errorf("persist: payload %s is corrupt", name)
		}
		var p commonpb.Payload
		if err := proto.Unmarshal(data, &p); err != nil {
			return nil, fmt.Errorf("persist: payload %s: %w", name, err)
		}
		out[i] = &p
	}
	return out, nil
}

// readPayload reads a stored payload, refusing one over MaxPayloadBytes before
// reading it.
func readPayload(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > MaxPayloadBytes {
		return nil, &PayloadTooLargeError{Size: st.Size()}
	}
	return io.ReadAll(io.LimitReader(f, MaxPayloadBytes+1))
}

// put stores a payload in the blob store; one stored already is success. On a
// file:// store it is touched as write touches it (retention).
func (d *PayloadDriver) put(name string, data []byte) error {
	key, err := blobstore.PayloadKey(name)
	if err != nil {
		return fmt.Errorf("persist: payload: %w", err)
	}
	err = d.store.Put(context.Background(), key, data, blobstore.Exclusive)
	if errors.Is(err, blobstore.ErrExist) {
		if p, ok := d.store.LocalPath(key); ok {
			now := time.Now()
			_ = os.Chtimes(p, now, now)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("persist: payload: %w", err)
	}
	return nil
}

// get reads a payload from the blob store, refusing one over MaxPayloadBytes
// before reading it.
func (d *PayloadDriver) get(name string) ([]byte, error) {
	key, err := blobstore.PayloadKey(name)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	a, err := d.store.Stat(ctx, key)
	if err != nil {
		return nil, err
	}
	if a.Size > MaxPayloadBytes {
		return nil, &PayloadTooLargeError{Size: a.Size}
	}
	return d.store.Get(ctx, key)
}
