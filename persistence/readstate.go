package persistence

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// ReadStateFile is the name, under a session's state directory, of the files the
// session has read: what lets an Edit in one `starter run` follow a Read in an
// earlier one, as Claude Code's readFileState does within one session.
const ReadStateFile = "read-state.json"

// ReadState keeps the read files of sessions under a state directory.
type ReadState struct {
	dir string
}

// NewReadState keeps read state under stateDir, which must be absolute.
func NewReadState(stateDir string) (*ReadState, error) {
	dir, err := stateRoot(stateDir)
	if err != nil {
		return nil, err
	}
	return &ReadState{dir: dir}, nil
}

type readStateFile struct {
	Files []string `json:"files"`
}

func (r *ReadState) path(session string) (string, error) {
	return sessionPath(r.dir, session, ReadStateFile)
}

// Load returns the files session has read, sorted; none for a new session.
func (r *ReadState) Load(session string) ([]string, error) {
	p, err := r.path(session)
	if err != nil {
		return nil, err
	}
	var f readStateFile
	if err := readJSON(p, &f); err != nil {
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
// lock on the session's lock file, and the file is replaced atomically.
func (r *ReadState) Add(session string, files []string) error {
	if len(files) == 0 {
		return nil
	}
	p, err := r.path(session)
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
	return writeReplace(p, data)
}
