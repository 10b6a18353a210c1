package checkpoint

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolpipe/toolpipe/internal/blobstore"
)

// CaptureOptions are what one capture is for.
type CaptureOptions struct {
	// Session, when set, also stores a record of the checkpoint under the session
	// (blobstore.CheckpointRecordKey): what a retention sweep keeps the objects for,
	// and what a reader lists to find a session's checkpoints.
	Session string
}

// Result is what a capture stored.
type Result struct {
	// ID is the checkpoint: the root tree's object id.
	ID string `json:"id"`
	// Files is how many files (and symbolic links) the checkpoint holds.
	Files int `json:"files"`
	// Changed is how many paths were added, changed or removed since the previous
	// capture of this workspace on this host (every path, the first time).
	Changed int `json:"changed"`
	// Uploaded and UploadedBytes are the objects this capture sent to the store and
	// their stored (compressed) size: what the checkpoint cost the store.
	Uploaded      int   `json:"uploaded"`
	UploadedBytes int64 `json:"uploaded_bytes"`
	// Skipped is what was left out although not ignored, and why.
	Skipped []Skipped `json:"skipped,omitempty"`
	// Timing is where the capture's time went, for traces and benchmarks.
	Timing Timing `json:"timing"`
}

// Timing splits a capture's wall time: asking git what changed (Scan), updating the
// private index (Index), making the trees (Trees), sending objects (Upload).
type Timing struct {
	Scan   time.Duration `json:"scan"`
	Index  time.Duration `json:"index"`
	Trees  time.Duration `json:"trees"`
	Upload time.Duration `json:"upload"`
}

// Skipped is a path a checkpoint left out.
type Skipped struct {
	Path   string `json:"path"`
	Size   int64  `json:"size,omitempty"`
	Reason string `json:"reason"`
}

// Notice says in one line what a checkpoint left out, for the session's notices;
// empty when it left out nothing.
func (r Result) Notice() string {
	if len(r.Skipped) == 0 {
		return ""
	}
	const show = 5
	var parts []string
	for _, s := range r.Skipped[:min(show, len(r.Skipped))] {
		if s.Size > 0 {
			parts = append(parts, fmt.Sprintf("%s (%s, %s)", s.Path, humanBytes(s.Size), s.Reason))
		} else {
			parts = append(parts, fmt.Sprintf("%s (%s)", s.Path, s.Reason))
		}
	}
	if more := len(r.Skipped) - show; more > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", more))
	}
	noun := "paths"
	if len(r.Skipped) == 1 {
		noun = "path"
	}
	return fmt.Sprintf("checkpoint %s left out %d %s: %s; a restore will not have them", short(r.ID), len(r.Skipped), noun, strings.Join(parts, ", "))
}

func short(id string) string { return id[:min(12, len(id))] }

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// Capture checkpoints workdir into the store and returns its id. It reads the
// workspace and writes nothing in it.
func (c *Checkpointer) Capture(ctx context.Context, workdir string, opts CaptureOptions) (Result, error) {
	if info, err := os.Stat(workdir); err != nil || !info.IsDir() {
		return Result{}, fmt.Errorf("checkpoint: workspace %s is not a directory (%v)", workdir, err)
	}
	w, err := c.open(ctx, workdir)
	if err != nil {
		return Result{}, err
	}
	defer w.close()
	res, err := w.capture(ctx)
	if err != nil {
		return Result{}, err
	}
	if opts.Session != "" {
		if err := c.record(ctx, opts.Session, workdir, res); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}

// record is what CheckpointRecordKey holds.
type record struct {
	Result
	Workdir string    `json:"workdir"`
	Time    time.Time `json:"time"`
}

func (c *Checkpointer) record(ctx context.Context, session, workdir string, res Result) error {
	k, err := blobstore.CheckpointRecordKey(session, res.ID)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	data, _ := json.Marshal(record{Result: res, Workdir: workdir, Time: time.Now().UTC()})
	if err := c.cfg.Store.Put(ctx, k, data, blobstore.Exclusive); err != nil && !errors.Is(err, blobstore.ErrExist) {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

// capture updates the private index from the work tree, writes its tree and uploads
// what the store lacks. The caller holds the workspace lock.
func (w *workspace) capture(ctx context.Context) (Result, error) {
	var timing Timing
	mark := time.Now()
	lap := func(d *time.Duration) { now := time.Now(); *d, mark = now.Sub(mark), now }
	if err := w.applyRules(); err != nil {
		return Result{}, err
	}
	plan, err := w.scan(ctx)
	if err != nil {
		return Result{}, err
	}
	lap(&timing.Scan)
	prev := w.state.Index
	changed := len(plan.update) + len(plan.forceRemove)
	if changed > 0 {
		// Forget the tree before the index moves away from it: if this capture fails
		// (or dies) after update-index, the next one must not take the old tree for
		// the index's, since git will report nothing changed.
		w.state.Index = ""
		if err := w.saveState(); err != nil {
			return Result{}, err
		}
	}
	if len(plan.forceRemove) > 0 {
		if _, err := w.run(ctx, nulList(plan.forceRemove), "update-index", "-z", "--force-remove", "--stdin"); err != nil {
			return Result{}, err
		}
	}
	if len(plan.update) > 0 {
		if _, err := w.run(ctx, nulList(plan.update), "update-index", "-z", "--add", "--remove", "--replace", "--stdin"); err != nil {
			return Result{}, err
		}
	}
	lap(&timing.Index)
	tree := w.state.Index
	var inc *increment
	if changed > 0 && prev != "" && prev == w.state.Complete && w.hasObject(prev) {
		if changes, ok := w.hashChanges(plan); ok {
			if t, i, err := w.buildTrees(prev, w.state.Files, changes); err == nil {
				tree, inc = t, i
				w.state.Index = tree
				goTrees.Add(1)
			}
		}
	}
	if inc == nil && (changed > 0 || tree == "") {
		// --missing-ok: after a restore the private repository holds the trees but not
		// the blobs of the files that did not change (they are in the store).
		out, err := w.run(ctx, nil, "write-tree", "--missing-ok")
		if err != nil {
			return Result{}, err
		}
		tree = strings.TrimSpace(string(out))
		w.state.Index = tree
	}
	if changed > 0 {
		if err := w.saveState(); err != nil {
			return Result{}, err
		}
	}
	lap(&timing.Trees)
	res := Result{ID: tree, Changed: changed, Skipped: plan.skipped}
	if res.Uploaded, res.UploadedBytes, err = w.upload(ctx, tree, inc); err != nil {
		return Result{}, err
	}
	lap(&timing.Upload)
	res.Files, res.Timing = w.state.Files, timing
	return res, w.saveState()
}

// applyRules writes the exclude rules into the private repository and rebuilds the
// index from scratch when they, or the caps, changed since the last capture: files
// the index holds were admitted under the old rules.
func (w *workspace) applyRules() error {
	var rules bytes.Buffer
	rules.WriteString("# toolpipe checkpoint excludes\n")
	for _, p := range w.c.cfg.Excludes {
		rules.WriteString(p + "\n")
	}
	// A state directory inside the workspace (--state-dir ./state) must not be
	// captured into itself: the cache and a file:// store's root are left out.
	root, _ := w.c.cfg.Store.LocalRoot()
	for _, dir := range []string{w.c.cfg.CacheDir, root} {
		if rel, err := filepath.Rel(w.workdir, dir); err == nil && dir != "" && rel != "." && !strings.HasPrefix(rel, "..") {
			rules.WriteString("/" + gitignoreEscape(filepath.ToSlash(rel)) + "/\n")
		}
	}
	if own, err := os.ReadFile(filepath.Join(w.workdir, ".git", "info", "exclude")); err == nil {
		rules.WriteString("# the workspace's .git/info/exclude\n")
		rules.Write(own)
		rules.WriteString("\n")
	}
	sum := sha256.Sum256(fmt.Appendf(rules.Bytes(), "\x00%d %d", w.c.cfg.MaxFileBytes, w.c.cfg.MaxCheckpointBytes))
	fp := hex.EncodeToString(sum[:])
	if fp == w.state.Rules {
		return nil
	}
	if err := os.WriteFile(filepath.Join(w.gitDir, "info", "exclude"), rules.Bytes(), 0o600); err != nil {
		return fmt.Errorf("checkpoint: cache: %w", err)
	}
	if err := os.Remove(w.index); err != nil && !isNotExist(err) {
		return fmt.Errorf("checkpoint: cache: %w", err)
	}
	w.state.Rules, w.state.Index = fp, ""
	return nil
}

// gitignoreEscape quotes the characters a gitignore pattern gives a meaning to.
func gitignoreEscape(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`\*?[]!# `, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
