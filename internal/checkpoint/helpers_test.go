package checkpoint_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/internal/checkpoint"
	"github.com/toolpipe/toolpipe/internal/s3test"
)

// stores are the blob stores the tests run against: the file:// default and a real
// S3-compatible server over HTTP.
var stores = map[string]func(t testing.TB) *blobstore.Store{
	"file": func(t testing.TB) *blobstore.Store { return openStore(t, blobstore.Config{StateDir: t.TempDir()}) },
	"s3": func(t testing.TB) *blobstore.Store {
		return openStore(t, blobstore.Config{URL: s3test.Start(t).URL("")})
	},
}

func openStore(t testing.TB, cfg blobstore.Config) *blobstore.Store {
	t.Helper()
	s, err := blobstore.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// host is one machine: its own cache directory, the shared store.
func host(t testing.TB, store *blobstore.Store, edit ...func(*checkpoint.Config)) *checkpoint.Checkpointer {
	t.Helper()
	cfg := checkpoint.Config{Store: store, CacheDir: filepath.Join(t.TempDir(), "cache")}
	for _, e := range edit {
		e(&cfg)
	}
	c, err := checkpoint.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// write creates files under dir: a path ending in "/" is a directory, one whose
// content starts with "->" a symlink to the rest.
func write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for _, p := range slices.Sorted(maps.Keys(files)) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		os.Remove(full)
		content := files[p]
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(target, full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot describes every file, symlink and directory under dir (except skip's
// top-level names) by type, executable bit and content, for exact comparisons.
func snapshot(t testing.TB, dir string, skip ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if slices.Contains(skip, strings.Split(rel, "/")[0]) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "symlink " + target
		case info.IsDir():
			out[rel+"/"] = "dir"
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = fmt.Sprintf("file x=%v %x", info.Mode()&0o100 != 0, sha256.Sum256(data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// exactTree describes every path under dir with its mode, size, time and content
// hash: a byte-for-byte and stat-for-stat picture, for "left untouched".
func exactTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		info, _ := d.Info()
		desc := fmt.Sprintf("%v %d %d", info.Mode(), info.Size(), info.ModTime().UnixNano())
		if info.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			desc += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		out[p] = desc
		return nil
	})
	return out
}

func diffSnapshots(want, got map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if got[k] != want[k] {
			fmt.Fprintf(&b, "  %s: want %q, got %q\n", k, want[k], got[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			fmt.Fprintf(&b, "  %s: unexpected %q\n", k, got[k])
		}
	}
	return b.String()
}

func capture(t testing.TB, c *checkpoint.Checkpointer, dir string) checkpoint.Result {
	t.Helper()
	r, err := c.Capture(context.Background(), dir, checkpoint.CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
