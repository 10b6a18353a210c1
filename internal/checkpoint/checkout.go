package checkpoint

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// checkout writes the files of tree (its trees present locally) into the empty work
// tree and makes the private index describe them. The blobs go from the store
// straight into the files, not into the private repository as well: a file created
// is the expensive part of a restore, and a capture never needs the old blobs (it
// diffs trees and uploads only what it hashed itself). read-tree then fills the
// index, and a refresh hashes each file once to record its stat data, so the next
// capture hashes nothing.
func (w *workspace) checkout(ctx context.Context, n *counter, tree string) (int, error) {
	out, err := w.run(ctx, nil, "ls-tree", "-r", "-t", "-z", tree)
	if err != nil {
		return 0, err
	}
	type file struct{ mode, oid, path string }
	var files []file
	for entry := range bytes.SplitSeq(out, []byte{0}) {
		meta, name, ok := bytes.Cut(entry, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !ok || len(f) != 3 {
			continue
		}
		full := filepath.Join(w.workdir, filepath.FromSlash(string(name)))
		if f[1] == string(typeTree) {
			// ls-tree lists a tree before what is in it.
			if err := os.Mkdir(full, 0o777); err != nil {
				return 0, fmt.Errorf("checkpoint: %w", err)
			}
			continue
		}
		files = append(files, file{f[0], f[2], full})
	}
	err = parallel(ctx, w.c.cfg.Parallelism, files, func(f file) error {
		loose, err := os.ReadFile(w.looseObject(f.oid))
		var content []byte
		if err == nil {
			content, err = verify(f.oid, typeBlob, loose)
		} else {
			loose, content, err = w.get(ctx, n, tree, f.oid, typeBlob)
			// git compares a symbolic link with its blob, not by hashing the link, so
			// the refresh below needs the blob of each.
			if err == nil && f.mode == "120000" {
				err = w.writeLoose(f.oid, loose)
			}
		}
		if err != nil {
			return err
		}
		return writeFile(f.path, f.mode, content)
	})
	if err != nil {
		return 0, err
	}
	if _, err := w.run(ctx, nil, "read-tree", tree); err != nil {
		return 0, err
	}
	if _, err := w.run(ctx, nil, "update-index", "-q", "--refresh"); err != nil {
		return 0, err
	}
	return len(files), nil
}

// writeFile creates path as git would check out an entry of mode: a symbolic link,
// or a file with the executable bit or without (the umask applies).
func writeFile(path, mode string, content []byte) error {
	if mode == "120000" {
		if err := os.Symlink(string(content), path); err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
		return nil
	}
	perm := os.FileMode(0o666)
	if mode == "100755" {
		perm = 0o777
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	_, err = f.Write(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}
