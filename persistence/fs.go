package persistence

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/persisted"
)

// Config configures an FS.
type Config struct {
	// StateDir is the absolute directory under which sessions keep their tool results.
	// It need not exist yet; it is created on the first write.
	StateDir string
	// Blob is the blob store other hosts read persisted outputs from; nil, or the
	// file:// store rooted at StateDir, keeps them in StateDir alone. Another store
	// receives a copy of every result as it is committed (fs_blob.go).
	Blob *blobstore.Store
}

// FS is the filesystem Store: <StateDir>/<session>/tool-results/<tool_use_id>.txt.
// It is safe for concurrent use, including by several processes sharing StateDir.
type FS struct {
	dir  string
	blob *blobstore.Store // a store other than StateDir's own, or nil
}

// headLen is how much of an output's start is kept to build its preview: the preview
// itself plus enough to see whether a rune straddles the cut.
const headLen = persisted.PreviewSizeBytes + utf8.UTFMax

// writeBufferSize coalesces the small writes of line-buffered commands; it is the
// "one buffer" on top of the threshold in the SpillWriter memory bound.
const writeBufferSize = 32 << 10

// NewFS returns an FS rooted at cfg.StateDir, which must be absolute so that the paths
// handed to the model do not depend on the worker's working directory.
func NewFS(cfg Config) (*FS, error) {
	if cfg.StateDir == "" {
		return nil, errors.New("persist: state dir is empty")
	}
	dir, err := stateRoot(cfg.StateDir)
	if err != nil {
		return nil, err
	}
	fs := &FS{dir: dir}
	if cfg.Blob != nil {
		if root, ok := cfg.Blob.LocalRoot(); !ok || root != dir {
			fs.blob = cfg.Blob
		}
	}
	return fs, nil
}

// stateRoot checks and cleans the state directory every store of this package is
// rooted at: absolute, so that paths handed to the model never depend on the
// worker's working directory.
func stateRoot(stateDir string) (string, error) {
	if !filepath.IsAbs(stateDir) {
		return "", fmt.Errorf("persist: state dir %q is not absolute", stateDir)
	}
	return filepath.Clean(stateDir), nil
}

// sessionPath is elem under session's directory in root (a stateRoot): the one
// place where FS, Conversations and ReadState check that a session id names a single
// directory (validateName) before joining it, so none of them can be handed an id
// that reaches out of its session's directory.
func sessionPath(root, session string, elem ...string) (string, error) {
	if err := validateName("session id", session); err != nil {
		return "", err
	}
	return filepath.Join(append([]string{root, session}, elem...)...), nil
}

// Path returns where the result of toolUseID in session is (or would be) stored.
func (s *FS) Path(session, toolUseID string, structured bool) (string, error) {
	ext := ".txt"
	if structured {
		ext = ".json"
	}
	// sessionPath checks the session id before the tool_use_id is checked, so its
	// error wins when both are wrong, as it always has.
	p, err := sessionPath(s.dir, session, "tool-results", toolUseID+ext)
	if err != nil {
		return "", err
	}
	if err := validateName("tool_use_id", toolUseID); err != nil {
		return "", err
	}
	return p, nil
}

// Persist implements Store.
func (s *FS) Persist(session, toolUseID string, content []byte, structured bool) (persisted.Output, error) {
	w, err := s.Create(session, toolUseID, structured)
	if err != nil {
		return persisted.Output{}, err
	}
	if _, err := w.Write(content); err != nil {
		_ = w.Abort()
		return persisted.Output{}, err
	}
	return w.Commit()
}

// Create implements Store. Output goes to a temp file next to the final name and is
// hard-linked into place on Commit: a link cannot replace an existing file, so the
// first complete result wins, and the final name never refers to a partial file.
func (s *FS) Create(session, toolUseID string, structured bool) (Writer, error) {
	path, err := s.Path(session, toolUseID, structured)
	if err != nil {
		return nil, err
	}
	// Skip writing a possibly huge output that Commit would throw away.
	if _, err := os.Lstat(path); err == nil {
		return &existingWriter{path: path, structured: structured}, nil
	}
	if found, err := s.fetch(session, toolUseID, structured, path); err != nil {
		return nil, err
	} else if found {
		return &existingWriter{path: path, structured: structured}, nil
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("persist: create directory: %w", err)
	}
	// The temp name cannot collide with a final name: final names end in .txt/.json.
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("persist: create temp file: %w", err)
	}
	return &fileWriter{
		fs:         s,
		session:    session,
		toolUseID:  toolUseID,
		f:          f,
		bw:         bufio.NewWriterSize(f, writeBufferSize),
		path:       path,
		structured: structured,
	}, nil
}

// fileWriter streams into a temp file and links it into place on Commit.
type fileWriter struct {
	fs         *FS
	session    string
	toolUseID  string
	f          *os.File
	bw         *bufio.Writer
	path       string
	structured bool
	head       []byte
	size       int64
	closed     bool
}

func (w *fileWriter) Write(p []byte) (int, error) {
	if w.closed {
		return 0, errors.New("persist: write after commit or abort")
	}
	if room := headLen - len(w.head); room > 0 {
		w.head = append(w.head, p[:min(room, len(p))]...)
	}
	n, err := w.bw.Write(p)
	w.size += int64(n)
	if err != nil {
		return n, fmt.Errorf("persist: write %s: %w", w.f.Name(), err)
	}
	return n, nil
}

func (w *fileWriter) Commit() (persisted.Output, error) {
	if w.closed {
		return persisted.Output{}, errors.New("persist: commit after commit or abort")
	}
	w.closed = true
	tmp := w.f.Name()
	// The remove is best effort: a stray temp file is never mistaken for a result.
	defer os.Remove(tmp)
	if err := w.bw.Flush(); err != nil {
		w.f.Close()
		return persisted.Output{}, fmt.Errorf("persist: write %s: %w", tmp, err)
	}
	// Sync before linking: the name must not become visible before the data is durable.
	if err := w.f.Sync(); err != nil {
		w.f.Close()
		return persisted.Output{}, fmt.Errorf("persist: sync %s: %w", tmp, err)
	}
	if err := w.f.Close(); err != nil {
		return persisted.Output{}, fmt.Errorf("persist: close %s: %w", tmp, err)
	}
	if err := os.Link(tmp, w.path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return describeExisting(w.path, w.structured)
		}
		return persisted.Output{}, fmt.Errorf("persist: %w", err)
	}
	// The activity reports the path as done, so the new name must survive a crash too.
	if err := syncDir(filepath.Dir(w.path)); err != nil {
		return persisted.Output{}, err
	}
	// And it must be where another host's Read finds it; a copy there first (an
	// earlier attempt on another host) wins, as a local one does.
	if existed, err := w.fs.upload(w.session, w.toolUseID, w.structured, w.path); err != nil {
		return persisted.Output{}, err
	} else if existed {
		return describeExisting(w.path, w.structured)
	}
	preview, hasMore := persisted.PreviewHead(w.head, w.size, persisted.PreviewSizeBytes)
	return persisted.Output{
		Path: w.path, Size: w.size, Structured: w.structured,
		Preview: preview, HasMore: hasMore,
	}, nil
}

func (w *fileWriter) Abort() error {
	if w.closed {
		return nil
	}
	w.closed = true
	w.f.Close()
	if err := os.Remove(w.f.Name()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("persist: remove temp file: %w", err)
	}
	return nil
}

// existingWriter stands in when the result was stored before Create: writes are
// dropped and Commit describes the stored file.
type existingWriter struct {
	path       string
	structured bool
}

func (w *existingWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *existingWriter) Abort() error                { return nil }
func (w *existingWriter) Commit() (persisted.Output, error) {
	return describeExisting(w.path, w.structured)
}

// describeExisting builds the description from the file rather than from the
// discarded content, so every attempt hands the model the same stub for the same id.
func describeExisting(path string, structured bool) (persisted.Output, error) {
	f, err := os.Open(path)
	if err != nil {
		return persisted.Output{}, fmt.Errorf("persist: open existing result: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return persisted.Output{}, fmt.Errorf("persist: stat existing result: %w", err)
	}
	if !info.Mode().IsRegular() {
		return persisted.Output{}, fmt.Errorf("persist: existing result %s is not a regular file", path)
	}
	head := make([]byte, min(int64(headLen), info.Size()))
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return persisted.Output{}, fmt.Errorf("persist: read existing result: %w", err)
	}
	preview, hasMore := persisted.PreviewHead(head[:n], info.Size(), persisted.PreviewSizeBytes)
	return persisted.Output{
		Path: path, Size: info.Size(), Structured: structured,
		Preview: preview, HasMore: hasMore, Existed: true,
	}, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("persist: sync directory: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("persist: sync directory: %w", err)
	}
	return nil
}
