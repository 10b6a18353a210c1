package activities

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/toolpipe/toolpipe/contract"
)

// The files a read-only command's patterns match are resolved like its paths,
// so "cat l*" through a link out of the working directory is seen; ".." after a
// link is its target's parent, as the kernel takes it (issue 24).
func TestResolvePathsGlobsAndDotDot(t *testing.T) {
	a := newActs(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	work, outside := filepath.Join(root, "work"), filepath.Join(root, "outside")
	os.MkdirAll(filepath.Join(outside, "sub"), 0o755)
	os.MkdirAll(work, 0o755)
	os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o600)
	os.WriteFile(filepath.Join(work, "a.txt"), []byte("a"), 0o600)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(work, "lnk"))
	os.Symlink(filepath.Join(outside, "sub"), filepath.Join(work, "l"))
	got, err := a.ResolvePaths(context.Background(), contract.ResolveRequest{
		Paths: []string{work + "/./l/../secret"},
		Globs: []string{work + "/ln?", work + "/[!x].txt", work + "/[[:alpha:]].txt", work + "/nothing*"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{work + "/./l/../secret", filepath.Join(outside, "secret"), filepath.Join(work, "lnk"), filepath.Join(work, "a.txt")} {
		if !slices.Contains(got.Paths, want) {
			t.Errorf("paths %v lack %s", got.Paths, want)
		}
	}
	many := make([]string, 0, maxGlobMatches+1)
	for i := 0; i <= maxGlobMatches/2; i++ {
		many = append(many, filepath.Join(work, "*"))
	}
	if _, err := a.ResolvePaths(context.Background(), contract.ResolveRequest{Globs: many}); err == nil {
		t.Error("more than maxGlobMatches matches: want an error")
	}
}
