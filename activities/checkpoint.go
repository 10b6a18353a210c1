package activities

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/internal/checkpoint"
)

// Workspace checkpoints (contract/checkpoint.go, DESIGN §11): the session runs
// these on its host after a turn that may have changed files, and to restore a
// workspace on a new host or rewind one. The checkpointer is made at the first
// call (it needs git, and opens the default store when the worker has no shared
// one), so a worker that never captures never asks for git.

// checkpoints holds the worker's Checkpointer once made.
type checkpoints struct {
	mu sync.Mutex
	c  *checkpoint.Checkpointer
}

// checkpointer returns the worker's Checkpointer, making it at the first call: on
// the shared blob store when the worker has one, else on the state directory's.
func (a *Activities) checkpointer(ctx context.Context) (*checkpoint.Checkpointer, error) {
	a.ckpt.mu.Lock()
	defer a.ckpt.mu.Unlock()
	if a.ckpt.c != nil {
		return a.ckpt.c, nil
	}
	store := a.cfg.Blob
	if store == nil {
		s, err := blobstore.Open(ctx, blobstore.Config{StateDir: a.cfg.StateDir})
		if err != nil {
			return nil, err
		}
		store = s
	}
	c, err := checkpoint.New(checkpoint.Config{Store: store, CacheDir: checkpoint.DefaultCacheDir(a.cfg.StateDir)})
	if err != nil {
		return nil, err
	}
	a.ckpt.c = c
	return c, nil
}

// CaptureCheckpoint captures the session's workspace into the store and records it
// under the session (blobstore.CheckpointRecordKey). It only reads the workspace and
// only creates content-addressed keys, so a retry (or a second host) is harmless.
func (a *Activities) CaptureCheckpoint(ctx context.Context, req contract.CaptureRequest) (contract.CheckpointResult, error) {
	stop := keepAlive(ctx, "", nil)
	defer stop()
	start := time.Now()
	if err := a.checkFence(ctx, req.SessionID, req.Generation); err != nil { // fence.go
		return contract.CheckpointResult{}, err
	}
	c, err := a.checkpointer(ctx)
	if err != nil {
		return contract.CheckpointResult{}, checkpointFailure("capture", req.SessionID, req.Workdir, err)
	}
	res, err := c.Capture(ctx, req.Workdir, checkpoint.CaptureOptions{Session: req.SessionID})
	if err != nil {
		return contract.CheckpointResult{}, checkpointFailure("capture", req.SessionID, req.Workdir, err)
	}
	out := contract.CheckpointResult{ID: res.ID, Files: res.Files, Changed: res.Changed, Uploaded: res.Uploaded,
		UploadedBytes: res.UploadedBytes, Notice: res.Notice(), Millis: time.Since(start).Milliseconds()}
	if activity.IsActivity(ctx) {
		activity.GetLogger(ctx).Info("checkpoint: captured", "session", req.SessionID, "turn", req.Turn, "checkpoint", res.ID,
			"files", res.Files, "changed", res.Changed, "uploaded", res.Uploaded, "bytes", res.UploadedBytes, "ms", out.Millis)
	}
	return out, nil
}

// RestoreCheckpoint writes a checkpoint into the request's workspace: a fresh one
// (Restore: staged and renamed into place, a repeat succeeds) or in place (a rewind,
// captured first so it can be undone).
func (a *Activities) RestoreCheckpoint(ctx context.Context, req contract.RestoreRequest) (contract.RestoreResult, error) {
	stop := keepAlive(ctx, "", nil)
	defer stop()
	start := time.Now()
	if err := a.checkFence(ctx, req.SessionID, req.Generation); err != nil { // fence.go
		return contract.RestoreResult{}, err
	}
	c, err := a.checkpointer(ctx)
	if err != nil {
		return contract.RestoreResult{}, checkpointFailure("restore", req.SessionID, req.Workdir, err)
	}
	if req.CatchUp {
		// A later run of the session on this host: the workspace is the session's
		// when this host left it at the session's latest state.
		last, err := c.Last(ctx, req.Workdir)
		if err != nil {
			return contract.RestoreResult{}, checkpointFailure("restore", req.SessionID, req.Workdir, err)
		}
		if last == req.ID && !emptyDir(req.Workdir) {
			return contract.RestoreResult{ID: req.ID, Current: true, Millis: time.Since(start).Milliseconds()}, nil
		}
		req.Move = true
	}
	var res checkpoint.RestoreResult
	if req.Move && !emptyDir(req.Workdir) {
		// A session moving onto this host finds a directory at its path: it becomes
		// the checkpoint (the host's own files there are the session's no more).
		req.InPlace, req.Overwrite = true, true
	}
	if req.InPlace {
		res, err = c.RestoreInPlace(ctx, req.Workdir, req.ID, checkpoint.RestoreOptions{Overwrite: req.Overwrite})
	} else {
		res, err = c.Restore(ctx, req.ID, req.Workdir)
	}
	if err != nil {
		return contract.RestoreResult{}, checkpointFailure("restore", req.SessionID, req.Workdir, err)
	}
	return contract.RestoreResult{ID: res.ID, Before: res.Before, Files: res.Files, Written: res.Written, Removed: res.Removed,
		Fetched: res.Fetched, FetchedBytes: res.FetchedBytes, Millis: time.Since(start).Milliseconds()}, nil
}

// emptyDir: dir does not exist, or holds nothing.
func emptyDir(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err != nil && errors.Is(err, fs.ErrNotExist) || err == nil && len(entries) == 0
}

// checkpointFailure types a capture's or restore's failure: a store that cannot be
// reached is retried (it may come back), the rest cannot get better by retrying.
func checkpointFailure(op, session, workdir string, err error) error {
	msg := fmt.Sprintf("session %s: %s of the workspace %s: %v", session, op, workdir, err)
	switch {
	case errors.Is(err, blobstore.ErrUnreachable):
		return temporal.NewApplicationErrorWithOptions(msg, contract.ErrCheckpointFailed, temporal.ApplicationErrorOptions{Cause: err})
	case errors.Is(err, checkpoint.ErrNotFound):
		return temporal.NewApplicationErrorWithOptions(msg, contract.ErrCheckpointNotFound, temporal.ApplicationErrorOptions{NonRetryable: true, Cause: err})
	case errors.Is(err, checkpoint.ErrNotEmpty):
		return temporal.NewApplicationErrorWithOptions(fmt.Sprintf("session %s: the working directory %s is not empty: the files of the checkpoint go into a new directory (give --workdir one), or take the conversation only (--conversation)", session, workdir),
			contract.ErrBadRewind, temporal.ApplicationErrorOptions{NonRetryable: true, Cause: err})
	case errors.Is(err, checkpoint.ErrConflict):
		return temporal.NewApplicationErrorWithOptions(msg, contract.ErrCheckpointConflict, temporal.ApplicationErrorOptions{NonRetryable: true, Cause: err})
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return temporal.NewApplicationErrorWithOptions(msg, contract.ErrCheckpointFailed, temporal.ApplicationErrorOptions{NonRetryable: true, Cause: err})
}
