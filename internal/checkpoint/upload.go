package checkpoint

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toolpipe/toolpipe/internal/blobstore"
)

// object is one git object of a checkpoint, with its depth in the tree (the root is
// -1), which orders uploads: children before parents.
type object struct {
	oid   string
	typ   objType
	depth int
}

// upload sends to the store the objects of tree it lacks, children before parents,
// so that the store never holds a tree without its subtree. The base of the
// increment is the last tree known complete in the store; only the objects that
// differ from it are sent (inc lists them when the capture built the trees from
// that base). It returns how many objects were sent and their size, and records tree
// as complete, with its number of files.
func (w *workspace) upload(ctx context.Context, tree string, inc *increment) (int, int64, error) {
	store := w.c.cfg.Store
	base := w.state.Complete
	if base != "" {
		// The store may have been emptied or replaced since: trust the base only if
		// its root is still there.
		k, _ := blobstore.CheckpointObjectKey(base)
		ok, err := store.Exists(ctx, k)
		if err != nil {
			return 0, 0, fmt.Errorf("checkpoint: %w", err)
		}
		if !ok {
			base = ""
		}
	}
	if base == tree {
		return 0, 0, nil
	}
	var objs []object
	var files int
	var err error
	if inc != nil && inc.base == base && base != "" {
		objs, files = inc.objs, inc.files // the capture built the new trees: it knows
	} else if objs, files, err = w.objectsSince(ctx, base, tree); err != nil {
		return 0, 0, err
	}
	var sent atomic.Int64
	var sentBytes atomic.Int64
	// Everything below the root goes in a batch made durable once, before the root:
	// the root's put is the commit point, and a crash before it leaves only objects
	// nothing refers to.
	batch := store.Batch()
	put := func(o object) error {
		loose, err := w.readLoose(ctx, o.oid, o.typ)
		if err != nil {
			return err
		}
		if _, err := verify(o.oid, o.typ, loose); err != nil {
			return fmt.Errorf("%w (in the cache %s; remove it to rebuild)", err, w.dir)
		}
		k, err := blobstore.CheckpointObjectKey(o.oid)
		if err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
		var putErr error
		if o.depth < 0 { // the root, alone and last
			if err := batch.Flush(ctx); err != nil {
				return fmt.Errorf("checkpoint: %w", err)
			}
			putErr = store.Put(ctx, k, loose, blobstore.Exclusive)
		} else if w.hasObject(o.oid) {
			putErr = batch.PutFile(ctx, k, w.looseObject(o.oid)) // verified above; never rewritten
		} else {
			putErr = batch.Put(ctx, k, loose, blobstore.Exclusive)
		}
		switch err := putErr; {
		case errors.Is(err, blobstore.ErrExist): // content-addressed: the same object
		case err != nil:
			return fmt.Errorf("checkpoint: %w", err)
		default:
			sent.Add(1)
			sentBytes.Add(int64(len(loose)))
		}
		return nil
	}
	// Blobs have no children: all at once. Then trees, deepest first, level by level.
	slices.SortStableFunc(objs, func(a, b object) int {
		if a.typ != b.typ {
			return cmp.Compare(a.typ, b.typ) // "blob" < "tree"
		}
		return cmp.Compare(b.depth, a.depth)
	})
	for len(objs) > 0 {
		n := 1
		for n < len(objs) && objs[n].typ == objs[0].typ && (objs[0].typ == typeBlob || objs[n].depth == objs[0].depth) {
			n++
		}
		if err := parallel(ctx, w.c.cfg.Parallelism, objs[:n], put); err != nil {
			return 0, 0, err
		}
		objs = objs[n:]
	}
	w.state.Complete, w.state.Files = tree, files
	return int(sent.Load()), sentBytes.Load(), nil
}

// objectsSince lists the objects of tree that base does not have (all of them when
// base is empty), the root tree included, and counts tree's files (from base's
// count, w.state.Files, and the paths added and deleted).
func (w *workspace) objectsSince(ctx context.Context, base, tree string) ([]object, int, error) {
	objs := []object{{oid: tree, typ: typeTree, depth: -1}}
	files := 0
	if base == "" {
		out, err := w.run(ctx, nil, "ls-tree", "-r", "-t", "-z", tree)
		if err != nil {
			return nil, 0, err
		}
		// <mode> SP <type> SP <oid> TAB <path>
		var missing, missingPaths []string
		for entry := range bytes.SplitSeq(out, []byte{0}) {
			meta, name, ok := bytes.Cut(entry, []byte{'\t'})
			f := strings.Fields(string(meta))
			if !ok || len(f) != 3 {
				continue
			}
			objs = append(objs, object{oid: f[2], typ: objType(f[1]), depth: strings.Count(string(name), "/")})
			if f[1] == string(typeBlob) {
				files++
				if !w.hasObject(f[2]) {
					missing, missingPaths = append(missing, f[2]), append(missingPaths, string(name))
				}
			}
		}
		if err := w.rehash(ctx, missing, missingPaths); err != nil {
			return nil, 0, err
		}
		return objs, files, nil
	}
	out, err := w.run(ctx, nil, "diff-tree", "-r", "-t", "-z", "--no-renames", base, tree)
	if err != nil {
		return nil, 0, err
	}
	files = w.state.Files
	// :<old mode> <new mode> <old oid> <new oid> <status> NUL <path> NUL
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		f := strings.Fields(strings.TrimPrefix(string(fields[i]), ":"))
		if len(f) != 5 {
			continue
		}
		isTree := f[0] == "040000" || f[1] == "040000"
		switch {
		case f[4] == "D":
			if !isTree {
				files--
			}
			continue
		case f[4] == "A" && !isTree:
			files++
		}
		typ := typeBlob
		if f[1] == "040000" {
			typ = typeTree
		}
		objs = append(objs, object{oid: f[3], typ: typ, depth: strings.Count(string(fields[i+1]), "/")})
	}
	return objs, files, nil
}

// rehash puts back into the private repository blobs it does not hold (a restore
// writes files without their blobs) from the files, when the whole tree must be
// uploaded again (the store lost it). The index says the files are unchanged, so
// they hash to the ids the tree names; a file that does not is an error.
func (w *workspace) rehash(ctx context.Context, oids, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	out, err := w.run(ctx, []byte(strings.Join(paths, "\n")+"\n"), "hash-object", "-w", "--no-filters", "--stdin-paths")
	if err != nil {
		return err
	}
	got := strings.Fields(string(out))
	for i, oid := range oids {
		if i >= len(got) || got[i] != oid {
			return fmt.Errorf("checkpoint: %s changed while it was captured; capture again", paths[i])
		}
	}
	return nil
}

// parallel runs fn on every item, n at a time, and returns the first error (the
// rest of the items are not started once one failed).
func parallel[T any](ctx context.Context, n int, items []T, fn func(T) error) error {
	if len(items) == 1 {
		return fn(items[0])
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	sem := make(chan struct{}, n)
	for _, it := range items {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := fn(it); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		})
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return first
}
