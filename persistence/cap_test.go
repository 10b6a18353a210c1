package persistence

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestSpillWriterCapsThePersistedFile: an output over MaxPersistedBytes keeps its
// first 64 MiB on disk, and the stub tells the model how big it really was.
func TestSpillWriterCapsThePersistedFile(t *testing.T) {
	s, _ := newTestFS(t)
	w := NewSpillWriter(s, "sess", "toolu_big", false, 30_000)
	chunk := bytes.Repeat([]byte("0123456789abcde\n"), 64<<10) // 1 MiB
	const total = MaxPersistedBytes + 3<<20
	for written := 0; written < total; written += len(chunk) {
		w.Write(chunk)
	}
	r, err := w.Finish()
	if err != nil || r.Persisted == nil {
		t.Fatalf("Finish = %+v, %v", r, err)
	}
	if r.Size != total {
		t.Errorf("Size = %d, want %d", r.Size, total)
	}
	st, err := os.Stat(r.Persisted.Path)
	if err != nil || st.Size() != MaxPersistedBytes {
		t.Fatalf("the file holds %v bytes (%v), want %d", st.Size(), err, MaxPersistedBytes)
	}
	if !strings.Contains(r.Content, "only its first 64") || !strings.Contains(r.Content, "The output was 67") {
		t.Errorf("the stub does not tell the model about the cap: ...%s", r.Content[max(0, len(r.Content)-200):])
	}
}

// TestProcessCapsThePersistedFile: the same for an output already in memory.
func TestProcessCapsThePersistedFile(t *testing.T) {
	s, _ := newTestFS(t)
	content := bytes.Repeat([]byte("x"), MaxPersistedBytes+1)
	r := Process(s, "sess", "toolu_mem", content, false, 30_000)
	if r.Persisted == nil {
		t.Fatalf("not persisted: %+v", r.PersistErr)
	}
	if st, err := os.Stat(r.Persisted.Path); err != nil || st.Size() != MaxPersistedBytes {
		t.Fatalf("the file holds %v bytes (%v), want %d", st.Size(), err, MaxPersistedBytes)
	}
	if !strings.Contains(r.Content, "only its first 64") {
		t.Errorf("no note: ...%s", r.Content[max(0, len(r.Content)-200):])
	}
}
