package persistence

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// writeOnce makes data the content of path unless path exists (fs.ErrExist): a
// temp file, synced, hard-linked into place, so the name never shows a partial file.
func writeOnce(path string, data []byte) error {
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("persist: %s: %w", path, fs.ErrExist)
	}
	tmp, err := writeTemp(path, data)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("persist: %s: %w", path, fs.ErrExist)
		}
		return fmt.Errorf("persist: %w", err)
	}
	return syncDir(filepath.Dir(path))
}

// writeReplace makes data the content of path, replacing it atomically.
func writeReplace(path string, data []byte) error {
	tmp, err := writeTemp(path, data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("persist: %w", err)
	}
	return syncDir(filepath.Dir(path))
}

func writeTemp(path string, data []byte) (string, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("persist: create directory: %w", err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("persist: create temp file: %w", err)
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("persist: write %s: %w", f.Name(), werr)
	}
	return f.Name(), nil
}

// readJSON decodes the file at path into v; a missing file wraps fs.ErrNotExist.
func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("persist: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("persist: %s: %w", path, err)
	}
	return nil
}
