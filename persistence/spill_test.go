package persistence

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/toolpipe/toolpipe/internal/preview"
)

// unwritableStore is a real FS whose state dir is a regular file, so every create
// fails with ENOTDIR; chmod would not do, as the tests run as root.
func unwritableStore(t testing.TB) *FS {
	t.Helper()
	file := filepath.Join(t.TempDir(), "state-is-a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := NewFS(Config{StateDir: file})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// devFullStore writes to /dev/full: creation works and every write fails with ENOSPC,
// the disk-full-mid-stream case.
type devFullStore struct{}

func (devFullStore) Persist(string, string, []byte, bool) (preview.Output, error) {
	return preview.Output{}, os.WriteFile("/dev/full", []byte("x"), 0)
}

func (devFullStore) Create(string, string, bool) (Writer, error) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	return devFullWriter{f}, err
}

type devFullWriter struct{ *os.File }

func (w devFullWriter) Commit() (preview.Output, error) {
	return preview.Output{}, errors.New("unreachable")
}
func (w devFullWriter) Abort() error { return w.Close() }

func requireDevFull(t testing.TB) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
}

func TestSpillWriterUnderThreshold(t *testing.T) {
	s, dir := newTestFS(t)
	w := NewSpillWriter(s, "sess", "toolu_1", false, 10)
	fmt.Fprint(w, "01234")
	fmt.Fprint(w, "56789")
	r, err := w.Finish()
	if err != nil || r.Content != "0123456789" || r.Size != 10 || r.Persisted != nil || r.PersistErr != nil {
		t.Errorf("Finish = %+v, %v", r, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sess")); !errors.Is(err, os.ErrNotExist) {
		t.Error("an inline result touched the disk")
	}
	if again, _ := w.Finish(); again.Content != r.Content {
		t.Error("second Finish differs")
	}
	if _, err := w.Write([]byte("late")); err == nil {
		t.Error("Write after Finish succeeded")
	}
}

func TestSpillWriterManyLines(t *testing.T) {
	s, _ := newTestFS(t)
	const lines = 200_000
	w := NewSpillWriter(s, "sess", "toolu_1", false, 30_000)
	for i := range lines {
		fmt.Fprintf(w, "line %d\n", i)
	}
	r, err := w.Finish()
	if err != nil || r.Persisted == nil || r.PersistErr != nil {
		t.Fatalf("Finish = %+v, %v", r.Persisted, err)
	}
	f, err := os.Open(r.Persisted.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for ; sc.Scan(); n++ {
		if want := fmt.Sprintf("line %d", n); sc.Text() != want {
			t.Fatalf("line %d is %q", n, sc.Text())
		}
	}
	if n != lines {
		t.Fatalf("file has %d lines, want %d", n, lines)
	}
	info, _ := f.Stat()
	if info.Size() != r.Size || r.Persisted.Size != r.Size {
		t.Errorf("sizes: file %d, result %d, persisted %d", info.Size(), r.Size, r.Persisted.Size)
	}
	if r.Content != preview.Message(*r.Persisted) {
		t.Error("Content is not the stub")
	}
	if !strings.Contains(r.Content, "Preview (first 2KB):\nline 0\nline 1\n") ||
		!strings.HasSuffix(r.Content, "\n...\n</persisted-output>") {
		t.Errorf("stub lacks the preview:\n%s", r.Content)
	}
}

func TestSpillWriterSingleWriteAcrossThreshold(t *testing.T) {
	s, _ := newTestFS(t)
	w := NewSpillWriter(s, "sess", "toolu_1", true, 100)
	w.Write([]byte("[1,"))
	big := bytes.Repeat([]byte("2,"), 500)
	w.Write(big)
	w.Write([]byte("3]"))
	r, _ := w.Finish()
	if r.Persisted == nil {
		t.Fatalf("not persisted: %+v", r)
	}
	got, _ := os.ReadFile(r.Persisted.Path)
	want := "[1," + string(big) + "3]"
	if string(got) != want || !strings.HasSuffix(r.Persisted.Path, ".json") {
		t.Errorf("file %s holds %d bytes, want %d", r.Persisted.Path, len(got), len(want))
	}
}

func TestSpillWriterUnwritableTruncates(t *testing.T) {
	w := NewSpillWriter(unwritableStore(t), "sess", "toolu_1", false, 20)
	w.Write([]byte(strings.Repeat("a", 19) + "é" + strings.Repeat("b", 79)))
	r, err := w.Finish()
	if err != nil {
		t.Fatalf("Finish failed: %v", err)
	}
	if r.PersistErr == nil || r.Persisted != nil || r.Size != 100 {
		t.Fatalf("Finish = %+v", r)
	}
	// 20 characters: the two-byte é is the 20th, kept whole.
	want := strings.Repeat("a", 19) + "é\n[output truncated at 21 bytes of 100: could not persist the full output: " +
		r.PersistErr.Error() + "]"
	if r.Content != want {
		t.Errorf("Content = %q\nwant %q", r.Content, want)
	}
}

func TestSpillWriterDiskFullMidStream(t *testing.T) {
	requireDevFull(t)
	w := NewSpillWriter(devFullStore{}, "sess", "toolu_1", false, 1000)
	chunk := bytes.Repeat([]byte("x"), 700)
	for range 10 {
		if n, err := w.Write(chunk); n != len(chunk) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	r, err := w.Finish()
	if err != nil || r.Size != 7000 || !strings.HasPrefix(r.Content, strings.Repeat("x", 1000)+"\n[output truncated at 1000 bytes of 7000: ") {
		t.Errorf("Finish = %q, %v", r.Content, err)
	}
}

func TestSpillWriterAbort(t *testing.T) {
	s, _ := newTestFS(t)
	w := NewSpillWriter(s, "sess", "toolu_1", false, 10)
	w.Write(bytes.Repeat([]byte("z"), 100))
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Finish(); !errors.Is(err, ErrAborted) {
		t.Errorf("Finish after Abort: %v", err)
	}
	path, _ := s.Path("sess", "toolu_1", false)
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Error("aborted output was stored")
	}
	assertNoTempFiles(t, filepath.Dir(path))
}

func TestSpillWriterConcurrentWriters(t *testing.T) {
	s, _ := newTestFS(t)
	w := NewSpillWriter(s, "sess", "toolu_1", false, 1000)
	var wg sync.WaitGroup
	for _, line := range []string{"stdout\n", "stderr\n"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5000 {
				w.Write([]byte(line))
			}
		}()
	}
	wg.Wait()
	r, _ := w.Finish()
	got, _ := os.ReadFile(r.Persisted.Path)
	if strings.Count(string(got), "stdout\n") != 5000 || strings.Count(string(got), "stderr\n") != 5000 {
		t.Error("interleaved writes were mangled")
	}
}

func TestSpillWriterUnlimited(t *testing.T) {
	for _, threshold := range []int{Unlimited, 0, -1} {
		w := NewSpillWriter(nil, "sess", "toolu_1", false, threshold)
		big := bytes.Repeat([]byte("r"), 200_000)
		w.Write(big)
		if r, _ := w.Finish(); r.Content != string(big) {
			t.Errorf("threshold %d: output not kept whole", threshold)
		}
	}
}

func TestSpillWriterMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 200 MB")
	}
	requireDevFull(t)
	s, _ := newTestFS(t)
	for _, tc := range []struct {
		name  string
		store Store
	}{{"persisted", s}, {"disk full", devFullStore{}}} {
		t.Run(tc.name, func(t *testing.T) {
			const total = 200 << 20
			chunk := bytes.Repeat([]byte("0123456789abcde\n"), 64<<10/16)
			w := NewSpillWriter(tc.store, "sess", "toolu_mem", false, DefaultMaxResultSizeChars)
			before := heapAlloc()
			peak := before
			for i := 0; i < total/len(chunk); i++ {
				w.Write(chunk)
				if i%256 == 0 {
					peak = max(peak, heapAlloc())
				}
			}
			r, err := w.Finish()
			if err != nil || r.Size != total {
				t.Fatalf("Finish: size %d, %v", r.Size, err)
			}
			growth := int64(peak) - int64(before)
			t.Logf("peak heap growth: %d KB", growth>>10)
			if growth > 20<<20 {
				t.Errorf("heap grew by %d MB writing 200 MB", growth>>20)
			}
		})
	}
}

func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func TestProcess(t *testing.T) {
	s, _ := newTestFS(t)
	small := []byte("small")
	if r := Process(s, "sess", "toolu_1", small, false, 10); r.Content != "small" || r.Persisted != nil {
		t.Errorf("under threshold: %+v", r)
	}
	big := bytes.Repeat([]byte("big\n"), 1000)
	r := Process(s, "sess", "toolu_2", big, false, 100)
	if r.Persisted == nil || r.Content != preview.Message(*r.Persisted) || r.Size != 4000 {
		t.Fatalf("over threshold: %+v", r)
	}
	if got, _ := os.ReadFile(r.Persisted.Path); !bytes.Equal(got, big) {
		t.Error("file does not hold the output")
	}
	for _, threshold := range []int{Unlimited, 0} {
		if r := Process(s, "sess", "toolu_3", big, false, threshold); r.Content != string(big) || r.Persisted != nil {
			t.Errorf("threshold %d persisted", threshold)
		}
	}
	r = Process(unwritableStore(t), "sess", "toolu_4", big, false, 10)
	if r.PersistErr == nil || !strings.HasPrefix(r.Content, "big\nbig\nbi\n[output truncated at 10 bytes of 4000: could not persist the full output: persist: ") {
		t.Errorf("unwritable: %q", r.Content)
	}
	if r := Process(nil, "sess", "toolu_5", big, false, 10); r.PersistErr == nil {
		t.Error("nil store did not truncate")
	}
}

func BenchmarkSpillWriter(b *testing.B) {
	chunk := bytes.Repeat([]byte("a line of command output\n"), 64<<10/25)
	b.Run("inline", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(chunk)))
		for b.Loop() {
			w := NewSpillWriter(nil, "sess", "toolu_1", false, 100_000)
			w.Write(chunk)
			w.Finish()
		}
	})
	b.Run("persisted-16MB", func(b *testing.B) {
		s, _ := newTestFS(b)
		b.ReportAllocs()
		b.SetBytes(int64(len(chunk)) * 256)
		i := 0
		for b.Loop() {
			i++
			w := NewSpillWriter(s, "sess", fmt.Sprintf("toolu_%d", i), false, DefaultMaxResultSizeChars)
			for range 256 {
				w.Write(chunk)
			}
			if r, _ := w.Finish(); r.Persisted == nil {
				b.Fatal(r.PersistErr)
			}
		}
	})
}

// Issue 17: thresholds count characters, as Claude Code does. 12,000 CJK characters
// (36,000 bytes) stay inline under a 30,000-character threshold, streamed or not;
// 31,000 are persisted; a truncation keeps whole characters.
func TestThresholdCountsCharacters(t *testing.T) {
	s, _ := newTestFS(t)
	cjk := []byte(strings.Repeat("字", 12000))
	if r := Process(s, "sess", "toolu_c1", cjk, false, 30000); r.Persisted != nil || r.Content != string(cjk) {
		t.Errorf("Process persisted 12,000 CJK characters under a 30,000-character threshold")
	}
	w := NewSpillWriter(s, "sess", "toolu_c2", false, 30000)
	for i := 0; i < len(cjk); i += 1000 { // splits characters across writes
		w.Write(cjk[i:min(i+1000, len(cjk))])
	}
	if r, _ := w.Finish(); r.Persisted != nil || r.Content != string(cjk) {
		t.Errorf("SpillWriter persisted 12,000 CJK characters under a 30,000-character threshold")
	}
	more := []byte(strings.Repeat("字", 31000))
	w = NewSpillWriter(s, "sess", "toolu_c3", false, 30000)
	for i := 0; i < len(more); i += 1000 {
		w.Write(more[i:min(i+1000, len(more))])
	}
	if r, _ := w.Finish(); r.Persisted == nil {
		t.Errorf("31,000 characters were not persisted")
	}
	if r := truncated(more, 10, int64(len(more)), errNoStore); !strings.HasPrefix(r.Content, strings.Repeat("字", 10)+"\n[output truncated at 30 bytes") {
		t.Errorf("truncated: %.80q", r.Content)
	}
}
