package persistence

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolpipe/toolpipe/internal/blobstore"
)

// Persisted outputs on a fleet. The model is given a path it can Read, and a path
// is a local file: every host keeps the outputs it wrote (or fetched) in its state
// directory as before, and, when the blob store is not that directory, a copy under
// the output's key (blobstore.ToolResultKey), exclusively, so that the first copy
// of a tool_use_id wins across hosts as the first local file wins on one. Another
// host's Read of the path, or a retried attempt there, fetches the copy into its own
// state directory (Fetch).

// upload copies the committed local result at path to the store; existed reports
// that the store held a result for the id already, which now replaces the local
// file (the first result wins on every host).
func (s *FS) upload(session, toolUseID string, structured bool, path string) (existed bool, err error) {
	if s.blob == nil {
		return false, nil
	}
	key, err := keyErr(blobstore.ToolResultKey(session, toolUseID, structured))
	if err != nil {
		return false, err
	}
	f, err := os.Open(path)
	if err != nil {
		return false, fmt.Errorf("persist: %w", err)
	}
	defer f.Close()
	ctx := context.Background()
	w, err := s.blob.Create(ctx, key, blobstore.Exclusive)
	if err == nil {
		if _, err = io.Copy(w, f); err != nil {
			_ = w.Abort()
		} else {
			err = w.Commit()
		}
	}
	if errors.Is(err, blobstore.ErrExist) {
		return true, s.download(key, path, true)
	}
	return false, storeErr(err)
}

// fetch copies the store's result for the id to path when the store has one.
func (s *FS) fetch(session, toolUseID string, structured bool, path string) (bool, error) {
	if s.blob == nil {
		return false, nil
	}
	key, err := keyErr(blobstore.ToolResultKey(session, toolUseID, structured))
	if err != nil {
		return false, err
	}
	if err := s.download(key, path, false); err != nil {
		if errors.Is(err, blobstore.ErrNotFound) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// download writes the object under key to path atomically (replacing a file there
// when replace is set, else keeping the first).
func (s *FS) download(key blobstore.Key, path string, replace bool) error {
	r, err := s.blob.NewReader(context.Background(), key)
	if err != nil {
		return storeErr(err)
	}
	defer r.Close()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("persist: create directory: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("persist: create temp file: %w", err)
	}
	defer os.Remove(f.Name())
	_, err = io.Copy(f, r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return storeErr(err)
	}
	if replace {
		err = os.Rename(f.Name(), path)
	} else if err = os.Link(f.Name(), path); errors.Is(err, os.ErrExist) {
		err = nil
	}
	if err != nil {
		return fmt.Errorf("persist: %w", err)
	}
	return syncDir(filepath.Dir(path))
}

// Fetch makes a persisted output or a background task's output readable here,
// given the path another host handed the model (…/<session>/tool-results/<id>.txt
// or .json, …/<session>/tasks/<task id>.output, whatever that host's state
// directory): the local copy in this host's state directory when there is one, else
// the store's, fetched there first. ok is false when p is not such a path, the
// store is this host's state directory, or the store has no such object.
func (s *FS) Fetch(p string) (local string, ok bool, err error) {
	if s.blob == nil || !filepath.IsAbs(p) {
		return "", false, nil
	}
	local, key, ok := s.localOf(p)
	if !ok {
		return "", false, nil
	}
	if _, err := os.Lstat(local); err == nil {
		return local, true, nil
	}
	if err := s.download(key, local, false); err != nil {
		if errors.Is(err, blobstore.ErrNotFound) {
			return "", false, nil
		}
		return "", false, err
	}
	return local, true, nil
}

// localOf maps a session file's path on any host to this host's path of it and
// its key.
func (s *FS) localOf(p string) (local string, key blobstore.Key, ok bool) {
	p = filepath.Clean(p)
	name := filepath.Base(p)
	dir := filepath.Dir(p)
	session := filepath.Base(filepath.Dir(dir))
	var err error
	switch filepath.Base(dir) {
	case blobstore.ToolResultsDir:
		var id string
		var structured bool
		switch {
		case strings.HasSuffix(name, ".txt"):
			id = strings.TrimSuffix(name, ".txt")
		case strings.HasSuffix(name, ".json"):
			id, structured = strings.TrimSuffix(name, ".json"), true
		default:
			return "", key, false
		}
		if key, err = blobstore.ToolResultKey(session, id, structured); err != nil {
			return "", key, false
		}
	case blobstore.TasksDir:
		id, isOutput := strings.CutSuffix(name, ".output")
		if !isOutput {
			return "", key, false
		}
		if key, err = blobstore.BackgroundOutputKey(session, id); err != nil {
			return "", key, false
		}
	default:
		return "", key, false
	}
	return filepath.Join(s.dir, filepath.FromSlash(key.String())), key, true
}

// Shared reports whether the blob store is shared with other hosts (not this
// host's state directory): only then is a session file copied there.
func (s *FS) Shared() bool { return s.blob != nil }

// TaskOutput is where this host writes the output of the background task whose
// output path (on whichever host started the session) is p; ok is false when p is
// not a task output path or nothing is shared.
func (s *FS) TaskOutput(p string) (local string, ok bool) {
	if s.blob == nil {
		return "", false
	}
	local, key, ok := s.localOf(p)
	if !ok || key.Kind() != blobstore.KindBackgroundOutput {
		return "", false
	}
	return local, true
}

// PutSessionFile copies a session file of this host (a task's output, the
// transcript) whole to the store under key, replacing the copy there: object stores
// do not append, so a file that grows is sent whole when it has grown.
func (s *FS) PutSessionFile(key blobstore.Key, local string) error {
	if s.blob == nil {
		return nil
	}
	f, err := os.Open(local)
	if err != nil {
		return fmt.Errorf("persist: %w", err)
	}
	defer f.Close()
	w, err := s.blob.Create(context.Background(), key, blobstore.Replace)
	if err != nil {
		return storeErr(err)
	}
	if _, err := io.Copy(w, f); err != nil {
		_ = w.Abort()
		return storeErr(err)
	}
	return storeErr(w.Commit())
}

// GetSessionFile makes local the store's copy of key when local is missing and
// the store has one (a transcript continued on another host).
func (s *FS) GetSessionFile(key blobstore.Key, local string) error {
	if s.blob == nil {
		return nil
	}
	if _, err := os.Lstat(local); err == nil {
		return nil
	}
	if err := s.download(key, local, false); err != nil && !errors.Is(err, blobstore.ErrNotFound) {
		return err
	}
	return nil
}
