package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"

	"github.com/toolpipe/toolpipe/internal/blobstore"
)

// ErrNotFound is a checkpoint id whose root tree is not in the store: never
// captured there, or captured into another store.
var ErrNotFound = errors.New("checkpoint not found")

var checkpointID = regexp.MustCompile(`^[0-9a-f]{64}$`)

func checkID(store, id string) error {
	if !checkpointID.MatchString(id) {
		return fmt.Errorf("checkpoint: %q is not a checkpoint id (64 lowercase hex digits)", id)
	}
	return nil
}

// Exists reports whether checkpoint id is complete in the store (its root is there,
// and uploads put a tree there only after its subtree).
func (c *Checkpointer) Exists(ctx context.Context, id string) (bool, error) {
	if err := checkID(c.cfg.Store.URL(), id); err != nil {
		return false, err
	}
	k, _ := blobstore.CheckpointObjectKey(id)
	ok, err := c.cfg.Store.Exists(ctx, k)
	if err != nil {
		return false, fmt.Errorf("checkpoint: %w", err)
	}
	return ok, nil
}

// mustExist is Exists as the typed failure a restore reports.
func (c *Checkpointer) mustExist(ctx context.Context, id string) error {
	ok, err := c.Exists(ctx, id)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("checkpoint: %s in %s: %w", id, c.cfg.Store.URL(), ErrNotFound)
	}
	return nil
}

// fetch makes every object of tree present in the private repository, getting from
// the store what is missing. A tree present locally has its whole subtree present
// (fetch writes a tree only after everything under it, and git's own objects are
// complete), so a subtree the cache has is skipped whole: a rewind fetches only
// what differs. It returns the objects fetched and their stored size.
func (w *workspace) fetch(ctx context.Context, tree string) (int, int64, error) {
	var got atomic.Int64
	var gotBytes atomic.Int64
	var mu sync.Mutex
	var levels [][]fetched    // trees fetched, by depth: written deepest first at the end
	seen := map[string]bool{} // trees taken up already (one subtree can occur twice)
	get := func(oid string, typ objType) ([]byte, []byte, error) {
		k, err := blobstore.CheckpointObjectKey(oid)
		if err != nil {
			return nil, nil, fmt.Errorf("checkpoint: %w", err)
		}
		loose, err := w.c.cfg.Store.Get(ctx, k)
		if errors.Is(err, blobstore.ErrNotFound) {
			return nil, nil, fmt.Errorf("checkpoint: %s: object %s of checkpoint %s is missing from the store (it was damaged or swept)", w.c.cfg.Store.URL(), oid, tree)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("checkpoint: %w", err)
		}
		content, err := verify(oid, typ, loose)
		if err != nil {
			return nil, nil, fmt.Errorf("%w (from the store %s)", err, w.c.cfg.Store.URL())
		}
		got.Add(1)
		gotBytes.Add(int64(len(loose)))
		return loose, content, nil
	}
	level := []string{tree}
	for depth := 0; len(level) > 0; depth++ {
		var next []string
		var blobs []string
		var done []fetched
		var todo []string
		for _, oid := range dedupe(level) {
			if !seen[oid] && !w.hasObject(oid) {
				seen[oid] = true
				todo = append(todo, oid)
			}
		}
		err := parallel(ctx, w.c.cfg.Parallelism, todo, func(oid string) error {
			loose, content, err := get(oid, typeTree)
			if err != nil {
				return err
			}
			entries, err := parseTree(oid, content)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			done = append(done, fetched{oid, loose})
			for _, e := range entries {
				switch {
				case e.mode == "40000":
					next = append(next, e.oid)
				case !w.hasObject(e.oid):
					blobs = append(blobs, e.oid)
				}
			}
			return nil
		})
		if err != nil {
			return 0, 0, err
		}
		err = parallel(ctx, w.c.cfg.Parallelism, dedupe(blobs), func(oid string) error {
			loose, _, err := get(oid, typeBlob)
			if err != nil {
				return err
			}
			return w.writeLoose(oid, loose)
		})
		if err != nil {
			return 0, 0, err
		}
		levels = append(levels, done)
		level = next
	}
	for i := len(levels) - 1; i >= 0; i-- {
		for _, t := range levels[i] {
			if err := w.writeLoose(t.oid, t.loose); err != nil {
				return 0, 0, err
			}
		}
	}
	return int(got.Load()), gotBytes.Load(), nil
}

type fetched struct {
	oid   string
	loose []byte
}

func dedupe(s []string) []string {
	seen := make(map[string]bool, len(s))
	out := s[:0]
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
