package checkpoint_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/internal/checkpoint"
)

// The benchmarks of BENCHMARKS.md ("Workspace checkpoints"):
//
//	go test -run '^$' -bench . -benchtime 20x ./internal/checkpoint/
//
// A repository of N source-like files (0.2-4 KiB, 50 directories of 20
// subdirectories) is captured once; then each turn changes 5 files and is captured,
// against the file:// default and the S3 test server. Reported: the capture's p50
// and p90 (ms), the objects and bytes it sent to the store per turn; the restore of
// the whole repository on another host (a fresh cache), and its size in the store.
// cpu-p50-ms is the CPU time of a capture (this process, the S3 server when it runs
// in it, and git), which a loaded machine inflates less than the wall time.

func genRepo(b *testing.B, dir string, n int) {
	b.Helper()
	for i := range n {
		p := benchPath(i)
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			b.Fatal(err)
		}
		body := sourceLike(i, 200+(i*7919)%4000)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// sourceLike is size bytes of text that compresses about as source code does
// (zlib level 1: to about a third), from a seed.
func sourceLike(seed, size int) string {
	words := []string{"func", "return", "if", "err", "nil", "for", "range", "ctx", "string", "int",
		"var", "type", "struct", "package", "import", "defer", "go", "map", "make", "len"}
	var b strings.Builder
	x := uint32(seed*2654435761 + 1)
	for b.Len() < size {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		switch x % 7 {
		case 0:
			fmt.Fprintf(&b, "\n\t")
		case 1:
			fmt.Fprintf(&b, "v%d ", x%1000)
		default:
			b.WriteString(words[x%uint32(len(words))] + " ")
		}
	}
	return b.String()
}

func benchPath(i int) string {
	return fmt.Sprintf("pkg%02d/sub%02d/file%05d.go", i%50, (i/50)%20, i)
}

// cpuTime is the CPU time this process and its waited-for children (git) used.
func cpuTime() time.Duration {
	var self, children syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(children.Utime) + tv(children.Stime)
}

func percentile(d []time.Duration, p float64) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	return float64(s[int(float64(len(s)-1)*p)]) / float64(time.Millisecond)
}

func BenchmarkCaptureTurn(b *testing.B) {
	for _, n := range []int{1000, 10000, 50000} {
		for _, name := range []string{"file", "s3"} {
			b.Run(fmt.Sprintf("%s/files=%d", name, n), func(b *testing.B) {
				work := b.TempDir()
				genRepo(b, work, n)
				c := host(b, stores[name](b))
				start := time.Now()
				first := capture(b, c, work)
				firstTime := time.Since(start)
				var times, cpu, scan, index, trees, upload []time.Duration
				var objects, bytes int
				turn := 0
				b.ResetTimer()
				for b.Loop() {
					b.StopTimer()
					turn++
					for k := range 5 {
						i := (turn*5 + k) * 7877 % n
						os.WriteFile(filepath.Join(work, benchPath(i)), []byte(sourceLike(turn*5+k+n, 200+(i*7919)%4000)), 0o644)
					}
					b.StartTimer()
					t0, c0 := time.Now(), cpuTime()
					r, err := c.Capture(context.Background(), work, checkpoint.CaptureOptions{})
					times = append(times, time.Since(t0))
					cpu = append(cpu, cpuTime()-c0)
					scan, index = append(scan, r.Timing.Scan), append(index, r.Timing.Index)
					trees, upload = append(trees, r.Timing.Trees), append(upload, r.Timing.Upload)
					if err != nil {
						b.Fatal(err)
					}
					if r.Changed != 5 {
						b.Fatalf("turn %d: %d changed, want 5", turn, r.Changed)
					}
					objects += r.Uploaded
					bytes += int(r.UploadedBytes)
				}
				b.ReportMetric(percentile(times, 0.5), "p50-ms")
				b.ReportMetric(percentile(times, 0.9), "p90-ms")
				b.ReportMetric(percentile(cpu, 0.5), "cpu-p50-ms")
				b.ReportMetric(percentile(scan, 0.5), "scan-p50-ms")
				b.ReportMetric(percentile(index, 0.5), "index-p50-ms")
				b.ReportMetric(percentile(trees, 0.5), "trees-p50-ms")
				b.ReportMetric(percentile(upload, 0.5), "upload-p50-ms")
				b.ReportMetric(float64(firstTime.Milliseconds()), "first-ms")
				b.ReportMetric(float64(first.UploadedBytes)/(1<<20), "store-MiB")
				b.ReportMetric(float64(objects)/float64(turn), "objects/turn")
				b.ReportMetric(float64(bytes)/float64(turn), "store-B/turn")
			})
		}
	}
}

func BenchmarkRestore(b *testing.B) {
	for _, name := range []string{"file", "s3"} {
		b.Run(name+"/files=10000", func(b *testing.B) {
			work := b.TempDir()
			genRepo(b, work, 10000)
			store := stores[name](b)
			id := capture(b, host(b, store), work).ID
			var times []time.Duration
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				other := host(b, store) // another host: an empty cache
				dest := filepath.Join(b.TempDir(), "w")
				b.StartTimer()
				t0 := time.Now()
				r, err := other.Restore(context.Background(), id, dest)
				times = append(times, time.Since(t0))
				if err != nil || r.Files != 10000 {
					b.Fatalf("restore: %+v %v", r, err)
				}
				b.StopTimer()
				// The host goes on: the first capture after a restore hashes nothing.
				if again := capture(b, other, dest); again.ID != id || again.Changed != 0 {
					b.Fatalf("capture after restore: %+v", again)
				}
				b.StartTimer()
			}
			b.ReportMetric(percentile(times, 0.5), "p50-ms")
		})
	}
}
