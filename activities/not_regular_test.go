package activities

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/tool"
)

// hangBound bounds a call that must not wait on a FIFO: without the checks each
// of these blocks in open(2) for ever (issue 24: a Read of a FIFO hung a turn for
// 15 minutes), so the test fails at the bound instead of hanging the suite.
const hangBound = 30 * time.Second

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

// runBounded runs fn and fails the test if it has not returned within hangBound.
func runBounded(t *testing.T, what string, fn func() (tool.Output, error)) tool.Output {
	t.Helper()
	type res struct {
		out tool.Output
		err error
	}
	done := make(chan res, 1)
	go func() {
		out, err := fn()
		done <- res{out, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("%s: %v", what, r.err)
		}
		return r.out
	case <-time.After(hangBound):
		t.Fatalf("%s is still waiting after %s: it blocked on a FIFO", what, hangBound)
	}
	return tool.Output{}
}

// Read, Write and Edit of a FIFO, and Read of a character device, are refused at
// once with what the path is; nothing is replaced.
func TestFileToolsRefuseFIFOsAndDevices(t *testing.T) {
	a := newActs(t)
	work := t.TempDir()
	fifo := filepath.Join(work, "pipe")
	mkfifo(t, fifo)
	ctx := context.Background()
	cases := []struct {
		name string
		tool string
		in   map[string]any
		want string
	}{
		{"read fifo", "Read", map[string]any{"file_path": fifo}, "Cannot read " + fifo + ": it is a FIFO (named pipe), not a regular file."},
		{"read device", "Read", map[string]any{"file_path": "/dev/zero"}, "Cannot read /dev/zero: it is a character device, not a regular file."},
		{"write fifo", "Write", map[string]any{"file_path": fifo, "content": "x"}, "Cannot change " + fifo + ": it is a FIFO (named pipe), not a regular file. Write changes regular files only."},
		{"edit fifo", "Edit", map[string]any{"file_path": fifo, "old_string": "a", "new_string": "b"}, "Cannot change " + fifo + ": it is a FIFO (named pipe), not a regular file. Edit changes regular files only."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cl := call(t, c.tool, work, c.in, fifo) // "read" already, so Write gets past its own rule
			var fn func(context.Context, tool.Call) (tool.Output, error)
			switch c.tool {
			case "Read":
				fn = a.Read
			case "Write":
				fn = a.Write
			case "Edit":
				fn = a.Edit
			}
			out := runBounded(t, c.name, func() (tool.Output, error) { return fn(ctx, cl) })
			if !out.IsError || !strings.Contains(out.Content, c.want) || !strings.HasPrefix(out.Content, "<tool_use_error>") {
				t.Fatalf("%+v, want an input error with %q", out, c.want)
			}
		})
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", st, err)
	}
}

// Grep of a FIFO named as its path is refused at once; a FIFO in the tree is
// skipped, and so is an ignore file that is a FIFO, with rg (which would wait on it
// for ever: the search is done again with the Go engine) and without it.
func TestGrepDoesNotWaitOnFIFOs(t *testing.T) {
	a := newActs(t)
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, "a.txt"), []byte("needle\n"), 0o644)
	mkfifo(t, filepath.Join(work, "pipe"))
	os.Mkdir(filepath.Join(work, "sub"), 0o755)
	os.WriteFile(filepath.Join(work, "sub", "b.txt"), []byte("needle\n"), 0o644)
	mkfifo(t, filepath.Join(work, "sub", ".gitignore"))
	grep := func(t *testing.T, in map[string]any) tool.Output {
		cl := call(t, "Grep", work, in)
		return runBounded(t, "Grep", func() (tool.Output, error) { return a.Grep(context.Background(), cl) })
	}
	engines := []string{"go"}
	if _, err := exec.LookPath("rg"); err == nil {
		engines = append(engines, "rg")
	}
	for _, engine := range engines {
		t.Run(engine, func(t *testing.T) {
			if engine == "go" {
				t.Setenv("PATH", t.TempDir())
			}
			out := grep(t, map[string]any{"pattern": "needle", "path": filepath.Join(work, "pipe")})
			if !out.IsError || !strings.Contains(out.Content, "it is a FIFO (named pipe), not a regular file or a directory") {
				t.Errorf("explicit FIFO: %+v", out)
			}
			out = grep(t, map[string]any{"pattern": "needle"})
			if out.IsError || !strings.Contains(out.Content, "Found 2 files") || !strings.Contains(out.Content, "a.txt") || !strings.Contains(out.Content, filepath.Join("sub", "b.txt")) {
				t.Errorf("tree with a FIFO .gitignore: %+v", out)
			}
		})
	}
}
