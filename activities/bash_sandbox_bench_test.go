package activities

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/sandbox"
	"github.com/toolpipe/toolpipe/tool"
)

// BenchmarkReadOnlyBash is the cost of the read-only sandbox per command: the
// Bash activity running `wc -l file` as an auto-allowed read-only command does
// (ReadOnlySandbox), under bubblewrap and under the Landlock fallback, against
// the same call run unconfined. It reports the median wall time per command
// (p50-ms) besides ns/op.
//
//	go test -run '^$' -bench ReadOnlyBash -benchtime 200x ./activities/
func BenchmarkReadOnlyBash(b *testing.B) {
	dir := b.TempDir()
	lines := strings.Repeat("a line of text\n", 1000)
	if err := os.WriteFile(filepath.Join(dir, "file"), []byte(lines), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		launcher *sandbox.Launcher
		sandbox  bool
	}{
		{"unsandboxed", &sandbox.Launcher{}, false},
		{"bwrap", &sandbox.Launcher{}, true},
		{"landlock", sandbox.NoBwrapForTests(), true},
	} {
		b.Run(c.name, func(b *testing.B) {
			if _, err := exec.LookPath("bwrap"); err != nil && c.name == "bwrap" {
				b.Skip("bubblewrap (bwrap) is not installed")
			}
			old := launcher
			launcher = c.launcher
			defer func() { launcher = old }()
			a, err := New(Config{StateDir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			cl := call(b, tool.BashName, dir, map[string]any{"command": "wc -l file"})
			cl.ReadOnlySandbox = c.sandbox
			run := func() {
				out, err := a.Bash(context.Background(), cl)
				if err != nil || out.IsError || out.Content != "1000 file" {
					b.Fatalf("%+v %v", out, err)
				}
			}
			run() // the launcher's one-time probe
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				run()
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
