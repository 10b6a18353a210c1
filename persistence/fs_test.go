package persistence

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolpipe/toolpipe/internal/preview"
)

func newTestFS(t testing.TB) (*FS, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := NewFS(Config{StateDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

func TestNewFSValidatesStateDir(t *testing.T) {
	for _, dir := range []string{"", "relative/state", "./state"} {
		if _, err := NewFS(Config{StateDir: dir}); err == nil {
			t.Errorf("NewFS(%q) succeeded, want an error", dir)
		}
	}
	s, err := NewFS(Config{StateDir: "/tmp/x/../state/"})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("s", "id", false)
	if p != "/tmp/state/s/tool-results/id.txt" {
		t.Errorf("path not cleaned: %s", p)
	}
}

func TestPersistLayout(t *testing.T) {
	s, dir := newTestFS(t)
	for _, structured := range []bool{false, true} {
		want := filepath.Join(dir, "sess", "tool-results", "toolu_1.txt")
		if structured {
			want = filepath.Join(dir, "sess", "tool-results", "toolu_1.json")
		}
		p, err := s.Persist("sess", "toolu_1", []byte(`{"a":1}`), structured)
		if err != nil {
			t.Fatal(err)
		}
		if p.Path != want || p.Structured != structured || p.Size != 7 || p.Existed {
			t.Errorf("Persist = %+v, want path %s", p, want)
		}
		got, err := os.ReadFile(want)
		if err != nil || string(got) != `{"a":1}` {
			t.Errorf("file = %q, %v", got, err)
		}
	}
	for _, d := range []string{filepath.Join(dir, "sess"), filepath.Join(dir, "sess", "tool-results")} {
		info, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if perm := info.Mode().Perm(); perm&^0o700 != 0 {
			t.Errorf("%s has mode %v, want at most 0700", d, perm)
		}
	}
}

func TestPersistTwiceKeepsFirst(t *testing.T) {
	s, _ := newTestFS(t)
	first := bytes.Repeat([]byte("first line\n"), 1000)
	second := []byte("second, shorter")
	p1, err := s.Persist("sess", "toolu_a", first, false)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := s.Persist("sess", "toolu_a", second, false)
	if err != nil {
		t.Fatalf("second Persist: %v", err)
	}
	if p1.Existed || !p2.Existed {
		t.Errorf("Existed = %v, %v; want false, true", p1.Existed, p2.Existed)
	}
	if p2.Size != int64(len(first)) || p2.Preview != p1.Preview || p2.HasMore != p1.HasMore {
		t.Errorf("second Persist describes %+v, want the first content", p2)
	}
	if preview.Message(p1) != preview.Message(p2) {
		t.Error("the stub differs between attempts")
	}
	got, _ := os.ReadFile(p1.Path)
	if !bytes.Equal(got, first) {
		t.Error("file does not hold the first content")
	}
}

func TestPersistConcurrentSameID(t *testing.T) {
	s, _ := newTestFS(t)
	const n = 8
	contents := make([][]byte, n)
	for i := range contents {
		contents[i] = bytes.Repeat([]byte{'a' + byte(i)}, 256<<10)
	}
	results := make([]preview.Output, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i], errs[i] = s.Persist("sess", "toolu_c", contents[i], false)
		}()
	}
	close(start)
	wg.Wait()
	fresh := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("goroutine %d: %v", i, errs[i])
		}
		if !results[i].Existed {
			fresh++
		}
		if preview.Message(results[i]) != preview.Message(results[0]) {
			t.Errorf("goroutine %d got a different stub", i)
		}
	}
	if fresh != 1 {
		t.Errorf("%d writers think they stored the result, want 1", fresh)
	}
	got, err := os.ReadFile(results[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, bytes.Repeat(got[:1], len(got))) || len(got) != 256<<10 {
		t.Errorf("file is not one whole content (len %d)", len(got))
	}
	assertNoTempFiles(t, filepath.Dir(results[0].Path))
}

func TestInvalidNames(t *testing.T) {
	s, _ := newTestFS(t)
	bad := []string{"", "a/b", `a\b`, "..", "a..b", ".", "a\x00b", strings.Repeat("x", preview.MaxNameBytes+1)}
	for _, name := range bad {
		if _, err := s.Persist(name, "toolu_1", []byte("x"), false); !errors.Is(err, preview.ErrInvalidName) {
			t.Errorf("session %q: err = %v, want preview.ErrInvalidName", name, err)
		}
		if _, err := s.Persist("sess", name, []byte("x"), false); !errors.Is(err, preview.ErrInvalidName) {
			t.Errorf("tool_use_id %q: err = %v, want preview.ErrInvalidName", name, err)
		}
		if _, err := s.Create("sess", name, false); !errors.Is(err, preview.ErrInvalidName) {
			t.Errorf("Create %q: err = %v, want preview.ErrInvalidName", name, err)
		}
	}
	long := strings.Repeat("x", preview.MaxNameBytes)
	if _, err := s.Persist(long, long, []byte("x"), true); err != nil {
		t.Errorf("a %d-byte name was rejected: %v", preview.MaxNameBytes, err)
	}
}

func TestStaleTempFileIsNotAResult(t *testing.T) {
	s, dir := newTestFS(t)
	results := filepath.Join(dir, "sess", "tool-results")
	if err := os.MkdirAll(results, 0o700); err != nil {
		t.Fatal(err)
	}
	// What a crash between create and link leaves behind.
	if err := os.WriteFile(filepath.Join(results, ".toolu_1.txt.tmp-123"), []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := s.Persist("sess", "toolu_1", []byte("whole output"), false)
	if err != nil || p.Existed || p.Size != 12 {
		t.Fatalf("Persist = %+v, %v", p, err)
	}
}

func TestCreateAbortFreesID(t *testing.T) {
	s, _ := newTestFS(t)
	w, err := s.Create("sess", "toolu_1", false)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("partial"))
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	path, _ := s.Path("sess", "toolu_1", false)
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("aborted result exists: %v", err)
	}
	assertNoTempFiles(t, filepath.Dir(path))
	if p, err := s.Persist("sess", "toolu_1", []byte("retry"), false); err != nil || p.Existed {
		t.Errorf("Persist after Abort = %+v, %v", p, err)
	}
}

func TestCreateAfterPersistDiscardsWrites(t *testing.T) {
	s, _ := newTestFS(t)
	if _, err := s.Persist("sess", "toolu_1", []byte("first"), false); err != nil {
		t.Fatal(err)
	}
	w, err := s.Create("sess", "toolu_1", false)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("a much longer second attempt"))
	p, err := w.Commit()
	if err != nil || !p.Existed || p.Size != 5 || p.Preview != "first" {
		t.Errorf("Commit = %+v, %v", p, err)
	}
}

func TestCommitRacesLink(t *testing.T) {
	// Create before anyone stored the id, then lose the race at Commit.
	s, _ := newTestFS(t)
	w, err := s.Create("sess", "toolu_1", false)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("loser"))
	if _, err := s.Persist("sess", "toolu_1", []byte("winner"), false); err != nil {
		t.Fatal(err)
	}
	p, err := w.Commit()
	if err != nil || !p.Existed || p.Preview != "winner" {
		t.Errorf("Commit = %+v, %v", p, err)
	}
	assertNoTempFiles(t, filepath.Dir(p.Path))
}

func TestPersistIntoUnwritableStateDir(t *testing.T) {
	// Running as root makes chmod useless, so block the directory with a regular file.
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := NewFS(Config{StateDir: file})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Persist("sess", "toolu_1", []byte("x"), false)
	if err == nil || errors.Is(err, preview.ErrInvalidName) || !strings.HasPrefix(err.Error(), "persist: ") {
		t.Errorf("err = %v, want a persist I/O error", err)
	}
}

func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
}
