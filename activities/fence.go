package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/tool"
)

// The fence (issue 26 item 5, DESIGN §11). A session placed on a fleet carries its
// placement's generation in every call of its host (tool.Call.Generation, the
// checkpoint requests). When the session moves off a lost host, the host that takes
// it writes the next generation's record (blobstore.PlacementKey, Exclusive); a
// host that comes back, or was only cut off, and still gets a call of the older
// generation (an attempt it had taken, a task left in its queue) finds that record
// and refuses the call before it runs: nothing of the moved session runs on it
// again. The blob store needs no compare-and-swap for this: generations only grow,
// and one Stat of the next one's key answers.

// checkFence fails with ErrFenced when session has moved past generation gen. A
// call without a generation (an unplaced session, an older workflow) or a worker
// without a shared store is not fenced.
func (a *Activities) checkFence(ctx context.Context, session string, gen int) error {
	if gen < 1 || a.cfg.Blob == nil || session == "" {
		return nil
	}
	return Fence(ctx, a.cfg.Blob, session, gen)
}

// Fence fails with a non-retryable ErrFenced when the store holds a placement of
// session newer than gen; a store that cannot answer fails retryably (the call
// must not run on a host that cannot tell).
func Fence(ctx context.Context, store *blobstore.Store, session string, gen int) error {
	k, err := blobstore.PlacementKey(session, gen+1)
	if err != nil {
		return err
	}
	data, err := store.Get(ctx, k)
	switch {
	case errors.Is(err, blobstore.ErrNotFound):
		return nil
	case err != nil:
		return fmt.Errorf("fence: session %s: %w", session, err)
	}
	host := string(data)
	var rec contract.PlacementRecord
	if jsonErr := json.Unmarshal(data, &rec); jsonErr == nil {
		host = rec.Host
	}
	return temporal.NewApplicationErrorWithOptions(
		fmt.Sprintf("session %s has moved to host %s (placement %d) after this host's placement %d was lost: this host no longer runs its tools; the call did not run", session, host, gen+1, gen),
		contract.ErrFenced, temporal.ApplicationErrorOptions{NonRetryable: true})
}

// fenced refuses a tool call of a placement the session has moved past.
func (a *Activities) fenced(fn ToolFunc) ToolFunc {
	return func(ctx context.Context, call tool.Call) (tool.Output, error) {
		if err := a.checkFence(ctx, call.SessionID, call.Generation); err != nil {
			return tool.Output{}, err
		}
		return fn(ctx, call)
	}
}
