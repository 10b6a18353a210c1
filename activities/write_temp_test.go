package activities

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteRemovesTempsOfDeadWriters: a Write whose worker was killed before its
// rename leaves a `.NAME.toolpipe-*` file; the next write into that directory
// removes it (no process holds its lock: the kernel dropped the dead writer's),
// and leaves alone the temporary file of a write still in progress (locked).
func TestWriteRemovesTempsOfDeadWriters(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".main.go.toolpipe-123456")
	if err := os.WriteFile(stale, []byte("half a fi"), 0o600); err != nil {
		t.Fatal(err)
	}
	live := filepath.Join(dir, ".other.go.toolpipe-654321")
	f, err := os.Create(live)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(filepath.Join(dir, "new.go"), []byte("package main\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the dead writer's temporary file is still there (%v)", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the live writer's temporary file was removed: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 { // new.go and the live temporary file: this write left none
		names := []string{}
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want new.go and the live temporary file", names)
	}
}
