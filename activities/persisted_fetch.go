package activities

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/blobstore"
)

// A persisted output's path is the state directory of the host that wrote it. On a
// fleet without a shared disk, the next call may run on another host, where the path
// does not exist: Read and Grep then take the output from the blob store
// (persistence.FS.Fetch) into this host's state directory and read that copy, so the
// path the model was given works on every host.

// persistedHere is path, or this host's copy of the persisted output path names
// when path is not here and the blob store has it. failed is a message for the
// model when the store could not be asked.
func (a *Activities) persistedHere(path string) (local string, failed string) {
	if a.results == nil {
		return path, ""
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return path, ""
	}
	got, ok, err := a.results.Fetch(path)
	if err != nil {
		a.log.Warn("persisted output: fetch from the blob store failed", "path", path, "error", err)
		return path, "the persisted output " + path + " is not on this host and the blob store could not be read: " + err.Error()
	}
	if !ok {
		return path, ""
	}
	return got, ""
}

// sharedTaskOutput is this host's path of a background task's output on a fleet.
func (a *Activities) sharedTaskOutput(p string) (string, bool) {
	if a.results == nil {
		return "", false
	}
	return a.results.TaskOutput(p)
}

// sharedOutput sends a finished (or stopped) task's output to the blob store.
func (a *Activities) sharedOutput(taskID, local string) {
	session := filepath.Base(filepath.Dir(filepath.Dir(local)))
	key, err := blobstore.BackgroundOutputKey(session, taskID)
	if err == nil {
		err = a.results.PutSessionFile(key, local)
	}
	if err != nil {
		a.log.Warn("background task: its output could not be copied to the blob store", "task", taskID, "error", err)
	}
}

// transcriptShared brings a session's transcript from the blob store before an
// append on a host that does not have it (the session moved), and returns what
// sends it back whole after the append; nil without a shared store.
func (a *Activities) transcriptShared(_ context.Context, in hooks.TranscriptAppend) (after func() error, err error) {
	if a.results == nil {
		return nil, nil
	}
	key, err := blobstore.TranscriptKey(filepath.Base(filepath.Dir(in.Path)))
	if err != nil {
		return nil, nil // not a path toolpipe names: a local file only
	}
	if err := a.results.GetSessionFile(key, in.Path); err != nil {
		return nil, err
	}
	return func() error { return a.results.PutSessionFile(key, in.Path) }, nil
}
