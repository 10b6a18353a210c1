package testfs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolpipe/toolpipe/internal/testfs"
)

// Write makes the missing directories and replaces what the file held.
func TestWrite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a", "b", "f.txt")
	testfs.Write(t, p, "one")
	testfs.Write(t, p, "two")
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "two" {
		t.Fatalf("read %q, %v; want %q", b, err, "two")
	}
}
