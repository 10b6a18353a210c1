package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/internal/statedir"
)

// DefaultExcludes are left out of every checkpoint besides what the workspace's
// .gitignore files say: dependency and cache directories that are rebuilt rather
// than edited, and that a project often fails to ignore. Gitignore syntax.
var DefaultExcludes = []string{"node_modules/", "__pycache__/", ".venv/", "*.pyc"}

// The default caps.
const (
	DefaultMaxFileBytes       = 16 << 20
	DefaultMaxCheckpointBytes = 256 << 20
	defaultParallelism        = 8
)

// Config configures a Checkpointer.
type Config struct {
	// Store is where checkpoints go; required.
	Store *blobstore.Store
	// CacheDir holds the private git directories and indexes, one per workspace;
	// absolute. It is a cache: losing it costs one full capture (or restore), never a
	// checkpoint. DefaultCacheDir(stateDir) is the usual place.
	CacheDir string
	// Excludes are gitignore patterns left out besides the workspace's own; nil is
	// DefaultExcludes, an empty slice excludes nothing more.
	Excludes []string
	// MaxFileBytes skips larger files (0: DefaultMaxFileBytes; negative: no cap).
	MaxFileBytes int64
	// MaxCheckpointBytes caps the new content (files added or changed since the last
	// checkpoint) one checkpoint stores; the largest files past it are skipped and
	// tried again next time (0: DefaultMaxCheckpointBytes; negative: no cap).
	MaxCheckpointBytes int64
	// Parallelism is how many objects move to or from the store at once (0: 8).
	Parallelism int
	// Git is the git program (empty: "git" on PATH); 2.29 or later (SHA-256 objects).
	Git string
}

// DefaultCacheDir is where a state directory keeps its checkpoint caches.
func DefaultCacheDir(stateDir string) string {
	return filepath.Join(statedir.Dir(stateDir).Cache(), "checkpoints")
}

// Checkpointer captures and restores workspaces. It is safe for concurrent use;
// operations on one workspace are serialised by a lock in its cache, which also
// holds between processes sharing the cache.
type Checkpointer struct {
	cfg Config
	git string
}

var gitVersion = regexp.MustCompile(`git version (\d+)\.(\d+)`)

// New checks cfg and that a usable git is installed.
func New(cfg Config) (*Checkpointer, error) {
	if cfg.Store == nil {
		return nil, errors.New("checkpoint: no blob store")
	}
	if !filepath.IsAbs(cfg.CacheDir) {
		return nil, fmt.Errorf("checkpoint: cache directory %q is not absolute", cfg.CacheDir)
	}
	if cfg.Excludes == nil {
		cfg.Excludes = DefaultExcludes
	}
	if cfg.MaxFileBytes == 0 {
		cfg.MaxFileBytes = DefaultMaxFileBytes
	}
	if cfg.MaxCheckpointBytes == 0 {
		cfg.MaxCheckpointBytes = DefaultMaxCheckpointBytes
	}
	if cfg.Parallelism <= 0 {
		cfg.Parallelism = defaultParallelism
	}
	git := cfg.Git
	if git == "" {
		git = "git"
	}
	path, err := exec.LookPath(git)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: git is needed to capture workspaces and was not found (%w); install git 2.29 or later", err)
	}
	out, err := exec.CommandContext(context.Background(), path, "version").Output()
	m := gitVersion.FindSubmatch(out)
	if err != nil || m == nil {
		return nil, fmt.Errorf("checkpoint: %s version: %q %v", path, out, err)
	}
	major, _ := strconv.Atoi(string(m[1]))
	minor, _ := strconv.Atoi(string(m[2]))
	if major < 2 || major == 2 && minor < 29 {
		return nil, fmt.Errorf("checkpoint: %s is git %d.%d; checkpoints need 2.29 or later (SHA-256 objects)", path, major, minor)
	}
	return &Checkpointer{cfg: cfg, git: path}, nil
}
