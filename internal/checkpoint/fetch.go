package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toolpipe/toolpipe/internal/blobstore"
)

// ErrNotFound is a checkpoint id whose root tree is not in the store: never
// captured there, or captured into another store.
var ErrNotFound = errors.New("checkpoint not found")

var checkpointID = regexp.MustCompile(`^[0-9a-f]{64}$`)

func checkID(id string) error {
	if !checkpointID.MatchString(id) {
		return fmt.Errorf("checkpoint: %q is not a checkpoint id (64 lowercase hex digits)", id)
	}
	return nil
}

// Exists reports whether checkpoint id is complete in the store (its root is there,
// and uploads put the root there only after everything under it).
func (c *Checkpointer) Exists(ctx context.Context, id string) (bool, error) {
	if err := checkID(id); err != nil {
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

// counter adds up what was fetched from the store.
type counter struct {
	objects atomic.Int64
	bytes   atomic.Int64
}

// get fetches object oid of checkpoint root from the store and verifies it; it
// returns the loose object and its content.
func (w *workspace) get(ctx context.Context, n *counter, root, oid string, typ objType) ([]byte, []byte, error) {
	k, err := blobstore.CheckpointObjectKey(oid)
	if err != nil {
		return nil, nil, fmt.Errorf("checkpoint: %w", err)
	}
	loose, err := w.c.cfg.Store.Get(ctx, k)
	if errors.Is(err, blobstore.ErrNotFound) {
		return nil, nil, fmt.Errorf("checkpoint: %s: object %s of checkpoint %s is missing from the store (it was damaged or swept)", w.c.cfg.Store.URL(), oid, root)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("checkpoint: %w", err)
	}
	content, err := verify(oid, typ, loose)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (from the store %s)", err, w.c.cfg.Store.URL())
	}
	n.objects.Add(1)
	n.bytes.Add(int64(len(loose)))
	return loose, content, nil
}

// fetchTrees makes every tree of root present in the private repository, level by
// level, and writes each only after all the trees under it: a tree present locally
// has every tree under it present, so a subtree the cache has is skipped whole (a
// rewind fetches only the trees that differ). Blobs are fetched by what needs them.
func (w *workspace) fetchTrees(ctx context.Context, n *counter, root string) error {
	var mu sync.Mutex
	var levels [][]fetched    // trees fetched, by depth: written deepest first at the end
	seen := map[string]bool{} // trees taken up already (one subtree can occur twice)
	level := []string{root}
	for len(level) > 0 {
		var todo []string
		for _, oid := range level {
			if !seen[oid] && !w.hasObject(oid) {
				seen[oid] = true
				todo = append(todo, oid)
			}
		}
		var next []string
		var done []fetched
		err := parallel(ctx, w.c.cfg.Parallelism, todo, func(oid string) error {
			loose, content, err := w.get(ctx, n, root, oid, typeTree)
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
				if e.mode == "40000" {
					next = append(next, e.oid)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		levels = append(levels, done)
		level = next
	}
	for i := len(levels) - 1; i >= 0; i-- {
		for _, t := range levels[i] {
			if err := w.writeLoose(t.oid, t.loose); err != nil {
				return err
			}
		}
	}
	return nil
}

type fetched struct {
	oid   string
	loose []byte
}

// fetchBlobs makes the blobs oids present in the private repository, for a git
// command that writes them into the work tree.
func (w *workspace) fetchBlobs(ctx context.Context, n *counter, root string, oids []string) error {
	var todo []string
	seen := map[string]bool{}
	for _, oid := range oids {
		if !seen[oid] && !w.hasObject(oid) {
			seen[oid] = true
			todo = append(todo, oid)
		}
	}
	return parallel(ctx, w.c.cfg.Parallelism, todo, func(oid string) error {
		loose, _, err := w.get(ctx, n, root, oid, typeBlob)
		if err != nil {
			return err
		}
		return w.writeLoose(oid, loose)
	})
}

// checkName refuses a tree entry name that git would refuse to check out: a
// checkpoint's trees come from the store, and a restore writes their paths itself.
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") || strings.EqualFold(name, ".git") {
		return fmt.Errorf("checkpoint: a tree has an entry named %q, which no checkpoint holds", name)
	}
	return nil
}
