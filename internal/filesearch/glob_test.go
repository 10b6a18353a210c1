package filesearch

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func touch(t testing.TB, path string, mtime int64) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if mtime != 0 {
		ts := time.Unix(mtime, 0)
		if err := os.Chtimes(path, ts, ts); err != nil {
			t.Fatal(err)
		}
	}
}

func glob(t *testing.T, req GlobRequest) GlobResult {
	t.Helper()
	r, err := Glob(context.Background(), req)
	if err != nil {
		t.Fatalf("Glob(%q): %v", req.Pattern, err)
	}
	return r
}

// A looping directory link (a/b/loop -> ..) and a link to the tree's own root
// neither fail the search nor list a file twice; repeated ** lists each file once.
func TestGlobSymlinkLoopAndRepeatedStars(t *testing.T) {
	dir := t.TempDir()
	touch(t, filepath.Join(dir, "a/b/x.txt"), 1_700_000_000)
	touch(t, filepath.Join(dir, "one.txt"), 1_700_000_100)
	touch(t, filepath.Join(dir, "c.txt"), 1_700_000_200)
	for link, target := range map[string]string{"a/b/loop": "..", "a/root": dir, "self": "."} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"**/*.txt", "**/**/**/*.txt", "**/a/**/*.txt", "./**/*.txt"} {
		r := glob(t, GlobRequest{Workdir: dir, Base: dir, Pattern: p, Dirs: []string{dir}})
		want := "a/b/x.txt\none.txt\nc.txt"
		if p == "**/a/**/*.txt" {
			want = "a/b/x.txt"
		}
		if r.Text() != want {
			t.Errorf("%s:\n%s\nwant (oldest first, each once):\n%s", p, r.Text(), want)
		}
	}
}

// A link out of the permitted directories is not followed, neither inside the
// walk nor as the pattern's fixed prefix; a link into another permitted
// directory is, and its files are shown absolute.
func TestGlobLinksStayInPermittedDirs(t *testing.T) {
	work, outside, extra := t.TempDir(), t.TempDir(), t.TempDir()
	touch(t, filepath.Join(outside, "secret.txt"), 0)
	touch(t, filepath.Join(extra, "shared.txt"), 0)
	touch(t, filepath.Join(work, "mine.txt"), 0)
	os.Symlink(outside, filepath.Join(work, "out"))
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(work, "secret-link.txt"))
	os.Symlink(extra, filepath.Join(work, "extra"))
	for _, p := range []string{"**/*.txt", "out/*.txt", "out/**"} {
		r := glob(t, GlobRequest{Workdir: work, Base: work, Pattern: p, Dirs: []string{work, extra}})
		if strings.Contains(r.Text(), "secret") {
			t.Errorf("%s followed a link out of the permitted directories:\n%s", p, r.Text())
		}
		if p == "**/*.txt" && (!strings.Contains(r.Text(), "mine.txt") || !strings.Contains(r.Text(), "extra/shared.txt")) {
			t.Errorf("%s: %s", p, r.Text())
		}
	}
}

// Hide drops denied paths and whole denied directories.
func TestGlobHide(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{".env", "a.txt", "secrets/k.pem", "src/.env"} {
		touch(t, filepath.Join(dir, p), 0)
	}
	hide := func(abs string) bool {
		return filepath.Base(abs) == ".env" || abs == filepath.Join(dir, "secrets")
	}
	r := glob(t, GlobRequest{Workdir: dir, Base: dir, Pattern: "**/*", Hide: hide})
	if r.Total != 1 || r.Text() != "a.txt" {
		t.Fatalf("got %d: %s", r.Total, r.Text())
	}
}

// Beyond the limit, the oldest files are listed with Claude Code's note.
func TestGlobTruncation(t *testing.T) {
	dir := t.TempDir()
	for i := range 120 {
		touch(t, filepath.Join(dir, "d", fmt.Sprintf("f%03d.txt", i)), 1_700_000_000+int64(119-i))
	}
	r := glob(t, GlobRequest{Workdir: dir, Base: filepath.Join(dir, "d"), Pattern: "*.txt"})
	lines := strings.Split(r.Text(), "\n")
	if len(lines) != 101 || lines[0] != "d/f119.txt" || lines[99] != "d/f020.txt" ||
		lines[100] != "(Showing 100 of 120 matching files; 20 more are not listed. Narrow the pattern or path to see the rest.)" {
		t.Fatalf("got %d lines: first %q, 100th %q, last %q", len(lines), lines[0], lines[99], lines[len(lines)-1])
	}
}

// globTreeSize is the size of the big tree: 100,000 files with TOOLPIPE_BIG_TREE=1
// (the figure), 20,000 otherwise to keep CI short.
func globTreeSize() int {
	if os.Getenv("TOOLPIPE_BIG_TREE") != "" {
		return 100_000
	}
	return 20_000
}

// makeTree writes n files, 100 per directory, in a tree three levels deep.
func makeTree(t testing.TB, dir string, n int) {
	for i := range n {
		d := filepath.Join(dir, strconv.Itoa(i/10_000), strconv.Itoa(i/100%100))
		if i%100 == 0 {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(d, strconv.Itoa(i)+".txt"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Glob of **/**/**/*.txt over a big tree counts each file once, and its peak
// memory (measured as the VmHWM of a child process doing only the Glob) stays
// far below what holding every match would take.
func TestGlobBigTreeBoundedMemory(t *testing.T) {
	if dir := os.Getenv("TOOLPIPE_GLOB_CHILD"); dir != "" {
		start := time.Now()
		r, err := Glob(context.Background(), GlobRequest{Workdir: dir, Base: dir, Pattern: "**/**/**/*.txt"})
		elapsed := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		status, _ := os.ReadFile("/proc/self/status")
		for _, l := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(l, "VmHWM:") {
				fmt.Printf("RESULT total=%d listed=%d hwm_kb=%s elapsed=%s\n", r.Total, len(r.Files), strings.Fields(l)[1], elapsed)
			}
		}
		return
	}
	n, dir := globTreeSize(), t.TempDir()
	makeTree(t, dir, n)
	cmd := exec.Command(os.Args[0], "-test.run=^TestGlobBigTreeBoundedMemory$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TOOLPIPE_GLOB_CHILD="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var total, listed, hwm int
	i := strings.Index(string(out), "RESULT ")
	if i < 0 {
		t.Fatalf("child printed no result:\n%s", out)
	}
	fmt.Sscanf(string(out[i:]), "RESULT total=%d listed=%d hwm_kb=%d", &total, &listed, &hwm)
	t.Logf("%d files: total %d, listed %d, peak RSS %d MiB; child: %s", n, total, listed, hwm/1024, strings.TrimSpace(string(out[i:])))
	if total != n || listed != GlobLimit {
		t.Errorf("total %d listed %d, want %d and %d", total, listed, n, GlobLimit)
	}
	if hwm > 64<<10 {
		t.Errorf("peak RSS %d KiB: memory grows with the tree", hwm)
	}
}
