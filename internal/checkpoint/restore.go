package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Restore's and RestoreInPlace's typed failures.
var (
	// ErrNotEmpty: Restore's destination holds files; restore into a new directory,
	// or rewind that one in place.
	ErrNotEmpty = errors.New("destination is not empty")
	// ErrConflict: rewinding would overwrite files the workspace holds but could not
	// capture (over a cap, unreadable), so they could not be brought back.
	ErrConflict = errors.New("the rewind would overwrite files no checkpoint holds")
)

// RestoreResult is what a restore did.
type RestoreResult struct {
	// ID is the checkpoint now in the workspace.
	ID string `json:"id"`
	// Before is, for RestoreInPlace, the checkpoint of the workspace as it was just
	// before: restoring it undoes the rewind.
	Before string `json:"before,omitempty"`
	// Files is how many files (and symbolic links) the workspace holds from ID.
	Files int `json:"files"`
	// Written and Removed count the files created or overwritten and removed.
	Written int `json:"written"`
	Removed int `json:"removed"`
	// Fetched and FetchedBytes are the objects got from the store (the rest were in
	// this host's cache already) and their stored size.
	Fetched      int   `json:"fetched"`
	FetchedBytes int64 `json:"fetched_bytes"`
}

// Restore writes checkpoint id into dest, which must not exist or be empty: the
// workspace of a session moving to this host. The files appear in a staging
// directory beside dest, renamed into place when complete, so dest never holds half
// a checkpoint; a restore that is repeated after it completed (a retried activity)
// succeeds without writing again.
func (c *Checkpointer) Restore(ctx context.Context, id, dest string) (RestoreResult, error) {
	if err := checkID(id); err != nil {
		return RestoreResult{}, err
	}
	dest, err := filepath.Abs(dest)
	if err != nil {
		return RestoreResult{}, fmt.Errorf("checkpoint: %w", err)
	}
	if err := c.mustExist(ctx, id); err != nil {
		return RestoreResult{}, err
	}
	w, err := c.open(ctx, dest)
	if err != nil {
		return RestoreResult{}, err
	}
	defer w.close()
	if entries, err := os.ReadDir(dest); err == nil && len(entries) > 0 {
		if w.state.Index == id && w.state.Restored == id {
			return RestoreResult{ID: id, Files: w.state.Files}, nil
		}
		return RestoreResult{}, fmt.Errorf("checkpoint: restore %s into %s: %w", short(id), dest, ErrNotEmpty)
	} else if err != nil && !isNotExist(err) {
		return RestoreResult{}, fmt.Errorf("checkpoint: restore into %s: %w", dest, err)
	}
	parent, base := filepath.Dir(dest), filepath.Base(dest)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return RestoreResult{}, fmt.Errorf("checkpoint: %w", err)
	}
	// We hold dest's lock: a staging directory left beside it is a killed restore's.
	stale, _ := filepath.Glob(filepath.Join(parent, "."+base+".restore-*"))
	for _, s := range stale {
		os.RemoveAll(s)
	}
	w.state.Restored = ""
	if err := w.applyRules(); err != nil {
		return RestoreResult{}, err
	}
	os.Remove(w.index)
	w.state.Index = ""
	var n counter
	if err := w.fetchTrees(ctx, &n, id); err != nil {
		return RestoreResult{}, err
	}
	staging, err := os.MkdirTemp(parent, "."+base+".restore-")
	if err != nil {
		return RestoreResult{}, fmt.Errorf("checkpoint: %w", err)
	}
	w.workdir = staging
	files, err := w.checkout(ctx, &n, id)
	if err != nil {
		os.RemoveAll(staging)
		return RestoreResult{}, err
	}
	if err := os.Chmod(staging, 0o755); err != nil {
		os.RemoveAll(staging)
		return RestoreResult{}, fmt.Errorf("checkpoint: %w", err)
	}
	// Recorded before the rename: a restore that dies after it finds dest restored
	// when it runs again, and one that dies before it finds dest absent.
	w.state.Index, w.state.Complete, w.state.Restored, w.state.Files = id, id, id, files
	if err := w.saveState(); err != nil {
		os.RemoveAll(staging)
		return RestoreResult{}, err
	}
	// Renaming keeps every file's inode and times, so the index's stat cache stays
	// valid for dest and the next capture hashes nothing. Go's Rename refuses an
	// existing directory as the target, even an empty one (a fork's new --workdir):
	// an empty one goes first (Remove fails on one that has files).
	if err := os.Remove(dest); err != nil && !isNotExist(err) {
		os.RemoveAll(staging)
		return RestoreResult{}, fmt.Errorf("checkpoint: restore %s into %s: %w", short(id), dest, ErrNotEmpty)
	}
	if err := os.Rename(staging, dest); err != nil {
		os.RemoveAll(staging)
		return RestoreResult{}, fmt.Errorf("checkpoint: restore into %s: %w", dest, err)
	}
	w.workdir = dest
	return RestoreResult{ID: id, Files: files, Written: files, Fetched: int(n.objects.Load()), FetchedBytes: n.bytes.Load()}, nil
}

// RestoreOptions change how RestoreInPlace treats what is in its way.
type RestoreOptions struct {
	// Overwrite replaces files the workspace holds but could not capture (Skipped:
	// over a cap, unreadable) where the checkpoint has a file; without it such a
	// rewind fails with ErrConflict and changes nothing.
	Overwrite bool
}

// RestoreInPlace rewinds workdir to checkpoint id: files that differ are written,
// files the checkpoint lacks are removed, and ignored files and those the workspace's
// own checkpoint skipped are left as they are. It first captures the workspace as
// it is (Before), so the rewind can be undone by restoring Before. A workflow that
// must be able to undo even a rewind that crashed half-way runs Capture as its own
// step first and records its id; this capture then finds nothing new.
func (c *Checkpointer) RestoreInPlace(ctx context.Context, workdir, id string, opts RestoreOptions) (RestoreResult, error) {
	if err := checkID(id); err != nil {
		return RestoreResult{}, err
	}
	if info, err := os.Stat(workdir); err != nil || !info.IsDir() {
		return RestoreResult{}, fmt.Errorf("checkpoint: workspace %s is not a directory (%v)", workdir, err)
	}
	if err := c.mustExist(ctx, id); err != nil {
		return RestoreResult{}, err
	}
	w, err := c.open(ctx, workdir)
	if err != nil {
		return RestoreResult{}, err
	}
	defer w.close()
	pre, err := w.capture(ctx)
	if err != nil {
		return RestoreResult{}, err
	}
	res := RestoreResult{ID: id, Before: pre.ID}
	if pre.ID == id {
		res.Files = pre.Files
		return res, nil
	}
	var n counter
	if err := w.fetchTrees(ctx, &n, id); err != nil {
		return RestoreResult{}, err
	}
	out, err := w.run(ctx, nil, "diff-tree", "-r", "-z", "--no-renames", pre.ID, id)
	if err != nil {
		return RestoreResult{}, err
	}
	// :<old mode> <new mode> <old oid> <new oid> <status> NUL <path> NUL
	var added, blobs []string
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		f := strings.Fields(strings.TrimPrefix(string(fields[i]), ":"))
		if len(f) != 5 {
			continue
		}
		switch f[4] {
		case "D":
			res.Removed++
			continue
		case "A":
			added = append(added, string(fields[i+1]))
		}
		res.Written++
		blobs = append(blobs, f[3])
	}
	conflicts := inTheWay(pre.Skipped, added)
	if len(conflicts) > 0 && !opts.Overwrite {
		return RestoreResult{Before: pre.ID}, fmt.Errorf("checkpoint: rewind %s to %s: %w: %s (rewind with Overwrite to replace them)",
			workdir, short(id), ErrConflict, listPaths(conflicts))
	}
	for _, p := range conflicts {
		if err := os.RemoveAll(filepath.Join(w.workdir, filepath.FromSlash(p))); err != nil {
			return RestoreResult{}, fmt.Errorf("checkpoint: %w", err)
		}
	}
	if err := w.fetchBlobs(ctx, &n, id, blobs); err != nil {
		return RestoreResult{}, err
	}
	res.Fetched, res.FetchedBytes = int(n.objects.Load()), n.bytes.Load()
	// A two-tree read-tree moves the index and the work tree from pre to id,
	// touching only the paths that differ; it checks everything before it writes
	// anything, and may overwrite a file .gitignore ignores where id has a file.
	if _, err := w.run(ctx, nil, "read-tree", "-m", "-u", "--exclude-per-directory=.gitignore", pre.ID, id); err != nil {
		return RestoreResult{}, err
	}
	res.Files = pre.Files + len(added) - res.Removed
	w.state.Index, w.state.Complete, w.state.Files = id, id, res.Files
	return res, w.saveState()
}

// inTheWay are the skipped paths the checkpoint would write at (or under, or over).
func inTheWay(skipped []Skipped, added []string) []string {
	var out []string
	for _, s := range skipped {
		for _, a := range added {
			if a == s.Path || strings.HasPrefix(a, s.Path+"/") || strings.HasPrefix(s.Path, a+"/") {
				out = append(out, s.Path)
				break
			}
		}
	}
	return out
}

func listPaths(paths []string) string {
	const show = 10
	s := strings.Join(paths[:min(show, len(paths))], ", ")
	if len(paths) > show {
		s += fmt.Sprintf(" and %d more", len(paths)-show)
	}
	return s
}

// Last is the checkpoint this host's cache last captured from workdir or restored
// into it ("" when it has none: the host never held that workspace, or lost its
// cache). A later run of a session compares it with the session's latest state to
// tell a workspace this host left as it is from one another host moved on since.
func (c *Checkpointer) Last(ctx context.Context, workdir string) (string, error) {
	w, err := c.open(ctx, workdir)
	if err != nil {
		return "", err
	}
	defer w.close()
	return w.state.Complete, nil
}
