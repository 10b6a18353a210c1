package checkpoint_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/internal/checkpoint"
)

// A workspace captured on one host and restored on another (its own cache, the same
// store) comes back as it was: every byte, the executable bit, symlinks as links;
// without what is ignored and without empty directories.
func TestCaptureRestoreOnAnotherHost(t *testing.T) {
	for name, mkStore := range stores {
		t.Run(name, func(t *testing.T) {
			store := mkStore(t)
			work := t.TempDir()
			write(t, work, map[string]string{
				"README.md":             "# hello\n",
				"src/main.go":           "package main\n",
				"src/deep/a/b/c.txt":    "deep\n",
				"crlf.txt":              "one\r\ntwo\nthree\r\n",
				".gitattributes":        "* text eol=crlf\n*.txt filter=lfs ident\n",
				"id.txt":                "$Id$\n",
				"link-to-src":           "->src/main.go",
				"dangling":              "->../outside/nowhere",
				"name with spaces.txt":  "s\n",
				"unicode-é.txt":         "é\n",
				"newline\nname":         "n\n",
				".gitignore":            "build/\n*.log\n",
				"build/out.bin":         "ignored\n",
				"debug.log":             "ignored\n",
				"node_modules/x/i.js":   "excluded by default\n",
				"empty/":                "",
				"sub/.gitignore":        "local-only\n",
				"sub/local-only":        "ignored by a nested .gitignore\n",
				"sub/kept":              "kept\n",
				".hidden/config":        "hidden files are files\n",
				"bin/run.sh":            "#!/bin/sh\necho hi\n",
				"unicode-dir-ü/file.md": "ü\n",
			})
			os.Chmod(filepath.Join(work, "bin/run.sh"), 0o755)
			a := host(t, store)
			res := capture(t, a, work)
			if len(res.ID) != 64 || res.Skipped != nil || res.Files != 17 {
				t.Fatalf("capture = %+v; want a 64-hex id, 17 files, nothing skipped", res)
			}

			dest := filepath.Join(t.TempDir(), "restored")
			b := host(t, store)
			rr, err := b.Restore(context.Background(), res.ID, dest)
			if err != nil {
				t.Fatal(err)
			}
			if rr.Files != 17 || rr.Fetched == 0 {
				t.Errorf("restore = %+v", rr)
			}
			want := snapshot(t, work, "build", "node_modules")
			delete(want, "debug.log")
			delete(want, "sub/local-only")
			delete(want, "empty/")
			if d := diffSnapshots(want, snapshot(t, dest)); d != "" {
				t.Fatalf("restored workspace differs:\n%s", d)
			}
			// And capturing the restored workspace is the same checkpoint, with nothing
			// to hash or send: the restore left the index's stat cache valid.
			again := capture(t, b, dest)
			if again.ID != res.ID || again.Changed != 0 || again.Uploaded != 0 {
				t.Errorf("capture after restore = %+v; want %s with nothing changed or sent", again, res.ID)
			}
		})
	}
}

// The user's repository is never touched: a capture and a rewind leave every file
// of its .git (index with staged changes, stash, refs, config) byte-identical, with
// the same times.
func TestUserRepositoryUntouched(t *testing.T) {
	work := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	write(t, work, map[string]string{"a.txt": "one\n", "b.txt": "two\n"})
	git("add", ".")
	git("commit", "-q", "-m", "first")
	write(t, work, map[string]string{"a.txt": "stashed change\n"})
	git("stash", "-q")
	write(t, work, map[string]string{"b.txt": "staged change\n", "c.txt": "untracked\n"})
	git("add", "b.txt")
	before := exactTree(t, filepath.Join(work, ".git"))

	c := host(t, stores["file"](t))
	first := capture(t, c, work)
	write(t, work, map[string]string{"d.txt": "a turn's file\n"})
	capture(t, c, work)
	if _, err := c.RestoreInPlace(context.Background(), work, first.ID, checkpoint.RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	if d := diffSnapshots(before, exactTree(t, filepath.Join(work, ".git"))); d != "" {
		t.Fatalf("the user's .git changed:\n%s", d)
	}
	if _, err := os.Stat(filepath.Join(work, "d.txt")); !os.IsNotExist(err) {
		t.Errorf("the rewind kept d.txt: %v", err)
	}
}

// A turn that changes 5 files uploads their 5 blobs and the trees on their paths,
// nothing else; a turn that changes nothing uploads nothing.
func TestIncrementalUploadsOnlyWhatChanged(t *testing.T) {
	for name, mkStore := range stores {
		t.Run(name, func(t *testing.T) {
			work := t.TempDir()
			files := map[string]string{}
			for i := range 200 {
				files[filepathFor(i)] = strings.Repeat("x", i) + "\n"
			}
			write(t, work, files)
			c := host(t, mkStore(t))
			first := capture(t, c, work)
			// 200 blobs, 10 directories d0..d9 of 2 subdirectories each, and the root.
			if first.Uploaded != 200+10+20+1 || first.Changed != 200 {
				t.Fatalf("first capture = %+v; want 231 objects sent", first)
			}
			write(t, work, map[string]string{
				filepathFor(0): "changed\n", filepathFor(1): "changed 1\n", filepathFor(22): "changed 22\n",
				filepathFor(33): "changed 33\n", filepathFor(44): "changed 44\n",
			})
			second := capture(t, c, work)
			// 5 blobs; the trees on their paths: d0/s0, d1/s1, d2/s0, d3/s1, d4/s0
			// (distinct), d0..d4, and the root.
			if second.Changed != 5 || second.Uploaded != 5+5+5+1 || second.ID == first.ID {
				t.Fatalf("second capture = %+v; want 5 changed, 16 objects sent", second)
			}
			third := capture(t, c, work)
			if third.ID != second.ID || third.Uploaded != 0 || third.Changed != 0 {
				t.Fatalf("an unchanged workspace = %+v; want the same id, nothing sent", third)
			}
			// Touching a file without changing it sends nothing either.
			now := mustStat(t, filepath.Join(work, filepathFor(7))).ModTime().Add(1e9)
			os.Chtimes(filepath.Join(work, filepathFor(7)), now, now)
			if fourth := capture(t, c, work); fourth.ID != second.ID || fourth.Uploaded != 0 {
				t.Fatalf("a touched file = %+v; want the same id, nothing sent", fourth)
			}
		})
	}
}

func filepathFor(i int) string {
	return "d" + string(rune('0'+i%10)) + "/s" + string(rune('0'+(i/10)%2)) + "/f" + strings.Repeat("0", 3-len(itoa(i))) + itoa(i) + ".txt"
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func mustStat(t testing.TB, p string) os.FileInfo {
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// Files over the per-file cap, and past one checkpoint's cap on new content, are
// left out with a notice that names them; the second kind is taken next time.
func TestCapsLeaveOutWithANotice(t *testing.T) {
	work := t.TempDir()
	write(t, work, map[string]string{
		"small.txt": "s\n",
		"huge.bin":  strings.Repeat("h", 2000),
		"mid-a.txt": strings.Repeat("a", 600),
		"mid-b.txt": strings.Repeat("b", 700),
	})
	c := host(t, stores["file"](t), func(cfg *checkpoint.Config) {
		cfg.MaxFileBytes = 1000
		cfg.MaxCheckpointBytes = 1000
	})
	first := capture(t, c, work)
	if first.Files != 2 || len(first.Skipped) != 2 ||
		first.Skipped[0].Path != "huge.bin" || !strings.Contains(first.Skipped[0].Reason, "per-file cap") ||
		first.Skipped[1].Path != "mid-b.txt" || !strings.Contains(first.Skipped[1].Reason, "tried again next time") {
		t.Fatalf("first capture = %+v", first)
	}
	n := first.Notice()
	for _, want := range []string{"left out 2 paths", "huge.bin (2.0 KiB, over the 1000 bytes per-file cap)", "mid-b.txt", "a restore will not have them"} {
		if !strings.Contains(n, want) {
			t.Errorf("notice %q lacks %q", n, want)
		}
	}
	second := capture(t, c, work)
	if second.Files != 3 || len(second.Skipped) != 1 || second.Skipped[0].Path != "huge.bin" {
		t.Fatalf("second capture = %+v; want mid-b.txt taken now", second)
	}
	// A captured file that grows over the cap leaves the checkpoint (a stale copy
	// would restore the wrong content), with a notice.
	write(t, work, map[string]string{"small.txt": strings.Repeat("s", 1500)})
	third := capture(t, c, work)
	if third.Files != 2 || len(third.Skipped) != 2 || third.Skipped[1].Path != "small.txt" {
		t.Fatalf("third capture = %+v", third)
	}
	if (checkpoint.Result{ID: third.ID}).Notice() != "" {
		t.Errorf("a checkpoint that left out nothing has a notice")
	}
}

// A nested repository is left out with a notice (git records only its commit); a
// FIFO is not captured, and the capture does not block on it.
func TestUnsupportedPathsLeftOut(t *testing.T) {
	work := t.TempDir()
	write(t, work, map[string]string{"a.txt": "a\n", "vendor/lib/x.go": "package lib\n"})
	cmd := exec.Command("git", "init", "-q", filepath.Join(work, "vendor/lib"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if err := syscall.Mkfifo(filepath.Join(work, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := host(t, stores["file"](t))
	res := capture(t, c, work)
	got := map[string]string{}
	for _, s := range res.Skipped {
		got[s.Path] = s.Reason
	}
	if res.Files != 1 || got["vendor/lib"] != "nested git repository" || len(got) != 1 {
		t.Fatalf("capture = %+v", res)
	}
}

func TestRestoreRefusals(t *testing.T) {
	store := stores["file"](t)
	c := host(t, store)
	ctx := context.Background()
	work := t.TempDir()
	write(t, work, map[string]string{"a": "a\n"})
	id := capture(t, c, work).ID

	missing := strings.Repeat("0", 64)
	dest := filepath.Join(t.TempDir(), "w")
	if _, err := c.Restore(ctx, missing, dest); !errors.Is(err, checkpoint.ErrNotFound) || !strings.Contains(err.Error(), store.URL()) {
		t.Errorf("restore of an unknown checkpoint: %v; want ErrNotFound naming the store", err)
	}
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Errorf("a failed restore created %s", dest)
	}
	if _, err := c.RestoreInPlace(ctx, work, missing, checkpoint.RestoreOptions{}); !errors.Is(err, checkpoint.ErrNotFound) {
		t.Errorf("rewind to an unknown checkpoint: %v", err)
	}
	if _, err := c.Restore(ctx, "HEAD", dest); err == nil || !strings.Contains(err.Error(), "not a checkpoint id") {
		t.Errorf("restore of a malformed id: %v", err)
	}
	if _, err := c.Restore(ctx, id, work); !errors.Is(err, checkpoint.ErrNotEmpty) {
		t.Errorf("restore into a non-empty directory: %v", err)
	}
	// An existing empty directory (a fork's new --workdir) takes the checkpoint.
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if r, err := c.Restore(ctx, id, empty); err != nil || r.Files != 1 {
		t.Errorf("restore into an empty directory = %+v, %v", r, err)
	}
	// Repeating a restore that completed (a retried activity) succeeds.
	if _, err := c.Restore(ctx, id, dest); err != nil {
		t.Fatal(err)
	}
	if r, err := c.Restore(ctx, id, dest); err != nil || r.Files != 1 || r.Fetched != 0 {
		t.Errorf("repeated restore = %+v, %v", r, err)
	}
}

// An object damaged in the store never reaches a workspace.
func TestDamagedObjectRefused(t *testing.T) {
	state := t.TempDir()
	store := openStore(t, blobstore.Config{StateDir: state})
	work := t.TempDir()
	write(t, work, map[string]string{"a.txt": "precious\n"})
	id := capture(t, host(t, store), work).ID
	// Damage a.txt's blob: every object file that is not the root tree.
	objects := filepath.Join(state, "checkpoints", "objects")
	filepath.WalkDir(objects, func(p string, d os.DirEntry, err error) error {
		if !d.IsDir() && filepath.Base(filepath.Dir(p))+d.Name() != id {
			os.Chmod(p, 0o644)
			os.WriteFile(p, []byte("garbage"), 0o644)
		}
		return nil
	})
	dest := filepath.Join(t.TempDir(), "w")
	_, err := host(t, store).Restore(context.Background(), id, dest)
	if err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("restore of a damaged checkpoint: %v", err)
	}
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Errorf("a failed restore created %s", dest)
	}
}

// A store that lost the objects (emptied, or another store under the same cache)
// gets everything again at the next capture instead of a checkpoint with holes.
func TestEmptiedStoreGetsEverythingAgain(t *testing.T) {
	state := t.TempDir()
	store := openStore(t, blobstore.Config{StateDir: state})
	c := host(t, store)
	work := t.TempDir()
	write(t, work, map[string]string{"a/b.txt": "b\n", "c.txt": "c\n"})
	first := capture(t, c, work)
	os.RemoveAll(filepath.Join(state, "checkpoints"))
	again := capture(t, c, work)
	if again.ID != first.ID || again.Uploaded != first.Uploaded {
		t.Fatalf("after the store lost its objects: %+v; want all %d sent again", again, first.Uploaded)
	}
	// A host that restored the checkpoint (and so holds the files, not their blobs)
	// sends everything again too when the store loses it.
	b := host(t, store)
	dest := filepath.Join(t.TempDir(), "w")
	if _, err := b.Restore(context.Background(), again.ID, dest); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(state, "checkpoints"))
	if third := capture(t, b, dest); third.ID != first.ID || third.Uploaded != first.Uploaded {
		t.Fatalf("after a restore and a lost store: %+v; want all %d sent again", third, first.Uploaded)
	}
	if _, err := host(t, store).Restore(context.Background(), first.ID, filepath.Join(t.TempDir(), "w")); err != nil {
		t.Fatal(err)
	}
}

// A state directory inside the workspace (--state-dir ./state) is never captured
// into itself: not the cache, not the file:// store.
func TestStateDirInsideTheWorkspaceLeftOut(t *testing.T) {
	work := t.TempDir()
	write(t, work, map[string]string{"src/a.go": "package a\n"})
	state := filepath.Join(work, ".toolpipe state")
	store := openStore(t, blobstore.Config{StateDir: state})
	c, err := checkpoint.New(checkpoint.Config{Store: store, CacheDir: checkpoint.DefaultCacheDir(state)})
	if err != nil {
		t.Fatal(err)
	}
	first := capture(t, c, work)
	second := capture(t, c, work) // the store and the cache have grown in between
	if first.Files != 1 || second.ID != first.ID || second.Changed != 0 {
		t.Fatalf("captures = %+v, %+v; want only src/a.go, twice the same", first, second)
	}
}

// A directory replaced by a file of the same name, and a file by a directory, are
// captured as what they are now, with no notice.
func TestFileAndDirectorySwapPlaces(t *testing.T) {
	work := t.TempDir()
	write(t, work, map[string]string{"a/x.txt": "x\n", "b": "b\n", "keep": "k\n"})
	store := stores["file"](t)
	c := host(t, store)
	capture(t, c, work)
	os.RemoveAll(filepath.Join(work, "a"))
	os.Remove(filepath.Join(work, "b"))
	write(t, work, map[string]string{"a": "now a file\n", "b/y.txt": "now a directory\n"})
	res := capture(t, c, work)
	if len(res.Skipped) != 0 || res.Files != 3 {
		t.Fatalf("capture = %+v; want 3 files, nothing skipped", res)
	}
	dest := filepath.Join(t.TempDir(), "w")
	if _, err := host(t, store).Restore(context.Background(), res.ID, dest); err != nil {
		t.Fatal(err)
	}
	if d := diffSnapshots(snapshot(t, work), snapshot(t, dest)); d != "" {
		t.Fatalf("restored:\n%s", d)
	}
}

// A capture whose upload failed after it updated the private index does not leave
// the cache believing the old tree: the next capture, with nothing changed since,
// still checkpoints the change.
func TestFailedUploadIsNotForgotten(t *testing.T) {
	state := t.TempDir()
	store := openStore(t, blobstore.Config{StateDir: state})
	c := host(t, store)
	work := t.TempDir()
	write(t, work, map[string]string{"a.txt": "one\n", "b.txt": "b\n"})
	first := capture(t, c, work)
	write(t, work, map[string]string{"a.txt": "two\n"})
	objects := filepath.Join(state, "checkpoints", "objects")
	os.Rename(objects, objects+".away")
	os.WriteFile(objects, nil, 0o600) // every put now fails
	if _, err := c.Capture(context.Background(), work, checkpoint.CaptureOptions{}); err == nil {
		t.Fatal("a capture into a broken store succeeded")
	}
	os.Remove(objects)
	os.Rename(objects+".away", objects)
	second := capture(t, c, work)
	if second.ID == first.ID {
		t.Fatalf("the change made before the failed capture was lost: %+v", second)
	}
	dest := filepath.Join(t.TempDir(), "w")
	if _, err := host(t, store).Restore(context.Background(), second.ID, dest); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dest, "a.txt")); string(data) != "two\n" {
		t.Fatalf("restored a.txt = %q", data)
	}
}
