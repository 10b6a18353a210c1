package activities

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/blobstore"
)

// missingInStore is the failure of a call that needs an object of the session the
// store does not have: a worker whose blob-url (or state directory, with the
// default store) is not the session's. Retrying cannot make it appear, so the call
// fails at once, before anything is written, and says which store and which session;
// the session is kept, and continues on a worker with the right store. nil when err
// is not such a failure.
func missingInStore(err error) error {
	var be *blobstore.Error
	if !errors.As(err, &be) || !errors.Is(be.Kind, blobstore.ErrNotFound) {
		return nil
	}
	what, session := be.Key, ""
	if k, kerr := blobstore.ParseKey(be.Key); kerr == nil {
		what, session = k.Kind().String()+" "+be.Key, k.Session()
	}
	msg := fmt.Sprintf("session %s: its %s is not in the blob store %s: this worker's blob-url (or, with the default store, its state directory) is not the one the session was written to; "+
		"nothing was written and the session is kept: run its workers with the session's store (blob-url / TOOLPIPE_BLOB_URL) and continue it", session, what, be.Store)
	return temporal.NewApplicationErrorWithOptions(msg, contract.ErrSessionNotInStore,
		temporal.ApplicationErrorOptions{NonRetryable: true, Cause: err})
}
