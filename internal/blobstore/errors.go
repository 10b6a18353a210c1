package blobstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/smithy-go"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// The kinds of failure a caller decides on; test them with errors.Is.
var (
	// ErrNotFound: the store answered and has no object under the key.
	ErrNotFound = errors.New("not found")
	// ErrExist: an exclusive put found an object under the key already. For a key
	// named after its content, or written once per id, that is success.
	ErrExist = errors.New("already exists")
	// ErrUnreachable: the store cannot be used from this host (no answer, refused,
	// no permission, a bucket or container that does not exist). Retrying the same
	// call rarely helps; the message names the store so an operator can fix it.
	ErrUnreachable = errors.New("store unreachable")
	// ErrInvalidKey: the key names nothing the key scheme allows (keys.go).
	ErrInvalidKey = errors.New("invalid key")
)

// Error is a failed store operation: what was done, on which store (its URL without
// credentials) and key, which kind of failure it is, and the cause.
type Error struct {
	Op    string // get, put, stat, list, delete, open
	Store string // the store's URL, redacted
	Key   string // empty for operations on the whole store
	Kind  error  // ErrNotFound, ErrExist, ErrUnreachable, ErrInvalidKey or a context error
	Err   error  // the cause, as the service reported it
}

func (e *Error) Error() string {
	where := e.Store
	if e.Key != "" {
		where = fmt.Sprintf("%q in %s", e.Key, e.Store)
	}
	if e.Err == nil {
		return fmt.Sprintf("blobstore: %s %s: %v", e.Op, where, e.Kind)
	}
	return fmt.Sprintf("blobstore: %s %s: %v: %v", e.Op, where, e.Kind, e.Err)
}

// Is makes errors.Is(err, ErrNotFound) and the others true for an Error of that kind.
func (e *Error) Is(target error) bool { return target == e.Kind }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// classify turns a gocloud error into an Error. exclusive says whether the operation
// was an exclusive put, the only one for which a failed precondition means ErrExist.
func (s *Store) classify(op, key string, err error, exclusive bool) error {
	if err == nil {
		return nil
	}
	var already *Error
	if errors.As(err, &already) {
		return err
	}
	kind := ErrUnreachable
	switch code := gcerrors.Code(err); {
	case errors.Is(err, context.Canceled):
		kind = context.Canceled
	case code == gcerrors.NotFound:
		kind = ErrNotFound
		if missingContainer(s.bucket, err) {
			kind = ErrUnreachable
		}
	case exclusive && (code == gcerrors.FailedPrecondition || code == gcerrors.AlreadyExists):
		kind = ErrExist
	case code == gcerrors.InvalidArgument:
		kind = ErrInvalidKey
	}
	return &Error{Op: op, Store: s.url, Key: key, Kind: kind, Err: err}
}

// missingContainer reports whether a not-found error is about the bucket itself (S3
// and S3-compatible services answer NoSuchBucket for every key of a wrong bucket):
// that is a store that cannot be used, not a missing object.
func missingContainer(b *blob.Bucket, err error) bool {
	if b == nil {
		return false
	}
	var api smithy.APIError
	if b.ErrorAs(err, &api) {
		switch api.ErrorCode() {
		case "NoSuchBucket", "ContainerNotFound":
			return true
		}
	}
	return false
}
