package persistence

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/toolpipe/toolpipe/internal/blobstore"
)

// ReadStateFile is the name, under a session's state directory, of the files the
// session has read: what lets an Edit in one `starter run` follow a Read in an
// earlier one, as Claude Code's readFileState does within one session.
const ReadStateFile = "read-state.json"

// ReadState keeps the read files of sessions in the blob store. The read-merge-write
// of Add holds a lock file in the local state directory: the runs of a session that
// end at once run on one host (placement keeps a session's tools on one host at a
// time), and the object store has no compare-and-swap write to lean on instead.
type ReadState struct {
	store *blobstore.Store
	dir   string // the local state directory, for the lock files
}

// NewReadState keeps read state under stateDir, which must be absolute.
func NewReadState(stateDir string) (*ReadState, error) {
	s, err := defaultStore(stateDir)
	if err != nil {
		return nil, err
	}
	return NewReadStateIn(s, stateDir)
}

// NewReadStateIn keeps read state in store, with its locks under the local stateDir.
func NewReadStateIn(store *blobstore.Store, stateDir string) (*ReadState, error) {
	dir, err := stateRoot(stateDir)
	if err != nil {
		return nil, err
	}
	return &ReadState{store: store, dir: dir}, nil
}

type readStateFile struct {
	Files []string `json:"files"`
}

// Load returns the files session has read, sorted; none for a new session.
func (r *ReadState) Load(session string) ([]string, error) {
	key, err := keyErr(blobstore.ReadStateKey(session))
	if err != nil {
		return nil, err
	}
	var f readStateFile
	if err := getJSON(r.store, key, &f); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	slices.Sort(f.Files)
	return slices.Compact(f.Files), nil
}

// Add records files as read by session, keeping what is recorded already. Runs of
// one session may end at the same time, so the read-merge-write holds an exclusive
// lock on the session's lock file, and the object is replaced atomically.
func (r *ReadState) Add(session string, files []string) error {
	if len(files) == 0 {
		return nil
	}
	key, err := keyErr(blobstore.ReadStateKey(session))
	if err != nil {
		return err
	}
	p, err := sessionPath(r.dir, session, ReadStateFile)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("persist: %w", err)
	}
	lock, err := os.OpenFile(p+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("persist: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("persist: lock %s: %w", lock.Name(), err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	have, err := r.Load(session)
	if err != nil {
		return err
	}
	all := append(have, files...)
	slices.Sort(all)
	all = slices.Compact(all)
	if slices.Equal(all, have) {
		return nil
	}
	data, err := json.Marshal(readStateFile{Files: all})
	if err != nil {
		return fmt.Errorf("persist: %w", err)
	}
	return storeErr(r.store.Put(context.Background(), key, data, blobstore.Replace))
}
