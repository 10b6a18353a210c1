package checkpoint

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/blobstore"
)

// The trees a capture builds itself are the ones git write-tree builds from the same
// index, through every kind of change (files added, edited, removed, made
// executable, symlinks, a file and a directory swapping names, whole directories
// going), and the checkpoint restores to the workspace.
func TestGoTreesMatchWriteTree(t *testing.T) {
	ctx := context.Background()
	store, err := blobstore.Open(ctx, blobstore.Config{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	c, err := New(Config{Store: store, CacheDir: filepath.Join(t.TempDir(), "cache")})
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	rng := rand.New(rand.NewPCG(26, 30))
	names := []string{"a", "b", "c.txt", "d/e", "d/f.go", "d/g/h", "x/y/z.md", "x/y/w", "a-b", "a.b", "q/r"}
	pick := func() string { return names[rng.IntN(len(names))] }
	full := func(p string) string { return filepath.Join(work, filepath.FromSlash(p)) }
	put := func(p, content string) {
		os.RemoveAll(full(p))
		// A file where a parent should be is replaced by the directory.
		for dir := filepath.Dir(p); dir != "."; dir = filepath.Dir(dir) {
			if info, err := os.Lstat(full(dir)); err == nil && !info.IsDir() {
				os.Remove(full(dir))
			}
		}
		os.MkdirAll(filepath.Dir(full(p)), 0o755)
		os.WriteFile(full(p), []byte(content), 0o644)
	}
	for i := range 12 {
		put(names[i%len(names)], fmt.Sprint("initial ", i))
	}
	before := goTrees.Load()
	for turn := range 60 {
		for range 1 + rng.IntN(4) {
			p := pick()
			switch rng.IntN(7) {
			case 0, 1:
				put(p, fmt.Sprintf("turn %d %d", turn, rng.Int()))
			case 2:
				os.RemoveAll(full(p))
			case 3:
				os.Chmod(full(p), 0o755)
			case 4:
				put(p, "")
				os.Remove(full(p))
				os.Symlink(pick(), full(p))
			case 5:
				os.RemoveAll(full(strings.Split(p, "/")[0])) // a whole directory goes
			case 6:
				put(p+"/inner", "a file became a directory") // or a deeper path appears
			}
		}
		res, err := c.Capture(ctx, work, CaptureOptions{})
		if err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		w, err := c.open(ctx, work)
		if err != nil {
			t.Fatal(err)
		}
		out, err := w.run(ctx, nil, "write-tree", "--missing-ok")
		w.close()
		if err != nil {
			t.Fatal(err)
		}
		if git := strings.TrimSpace(string(out)); git != res.ID {
			t.Fatalf("turn %d: the capture's tree %s, git write-tree %s", turn, res.ID, git)
		}
		ls, err := gitIn(ctx, c, work, "ls-files", "-z")
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(ls, "\x00"); n != res.Files {
			t.Fatalf("turn %d: Files = %d, the index holds %d", turn, res.Files, n)
		}
	}
	t.Logf("%d of 60 captures built their trees themselves", goTrees.Load()-before)
	if built := goTrees.Load() - before; built < 30 {
		t.Fatalf("only %d of 60 captures built their trees themselves", built)
	}
}

func gitIn(ctx context.Context, c *Checkpointer, work string, args ...string) (string, error) {
	w, err := c.open(ctx, work)
	if err != nil {
		return "", err
	}
	defer w.close()
	out, err := w.run(ctx, nil, args...)
	return string(out), err
}
