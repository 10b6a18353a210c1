package checkpoint_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolpipe/toolpipe/internal/checkpoint"
)

// Issue 30's scenario on the workspace alone: turn 3 writes a file, turn 4 deletes
// another (as Bash would), turn 5 edits a third. Rewinding to before turn 4 brings
// the deleted file back and undoes the edit, leaves ignored and uncapturable files
// alone, and the rewind's Before restores the end state byte for byte.
func TestRewindAndUndo(t *testing.T) {
	for name, mkStore := range stores {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			work := t.TempDir()
			write(t, work, map[string]string{".gitignore": "*.log\n", "keep.txt": "keep\n", "doomed.txt": "doomed\n", "edited.txt": "v1\n"})
			c := host(t, mkStore(t), func(cfg *checkpoint.Config) { cfg.MaxFileBytes = 1 << 10 })
			capture(t, c, work)
			write(t, work, map[string]string{"turn3.txt": "written by Write\n", "dir/new/x.txt": "x\n"})
			afterTurn3 := capture(t, c, work)
			wantAt3 := snapshot(t, work)

			os.Remove(filepath.Join(work, "doomed.txt")) // turn 4: rm
			capture(t, c, work)
			write(t, work, map[string]string{"edited.txt": "v2\n", "turn5.txt": "5\n"}) // turn 5
			// Not captured, and must survive: an ignored log, a file over the cap.
			write(t, work, map[string]string{"run.log": "log\n", "big.dat": strings.Repeat("b", 2<<10)})
			end := snapshot(t, work)

			res, err := c.RestoreInPlace(ctx, work, afterTurn3.ID, checkpoint.RestoreOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.ID != afterTurn3.ID || res.Before == "" || res.Before == afterTurn3.ID || res.Removed != 1 || res.Written != 2 {
				t.Errorf("rewind = %+v; want turn5.txt removed, doomed.txt and edited.txt written", res)
			}
			got := snapshot(t, work)
			want := wantAt3
			want["run.log"], want["big.dat"] = end["run.log"], end["big.dat"]
			if d := diffSnapshots(want, got); d != "" {
				t.Fatalf("after the rewind:\n%s", d)
			}

			undo, err := c.RestoreInPlace(ctx, work, res.Before, checkpoint.RestoreOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if undo.Before != afterTurn3.ID {
				t.Errorf("undo.Before = %s, want the rewound state %s", undo.Before, afterTurn3.ID)
			}
			if d := diffSnapshots(end, snapshot(t, work)); d != "" {
				t.Fatalf("after undoing the rewind:\n%s", d)
			}
		})
	}
}

// A rewind that would overwrite a file no checkpoint holds (it grew over the cap
// since) refuses and changes nothing, unless told to overwrite.
func TestRewindConflict(t *testing.T) {
	ctx := context.Background()
	work := t.TempDir()
	write(t, work, map[string]string{"data.bin": "small\n", "other.txt": "1\n"})
	c := host(t, stores["file"](t), func(cfg *checkpoint.Config) { cfg.MaxFileBytes = 100 })
	first := capture(t, c, work)
	write(t, work, map[string]string{"data.bin": strings.Repeat("d", 500), "other.txt": "2\n"})
	before := snapshot(t, work)
	_, err := c.RestoreInPlace(ctx, work, first.ID, checkpoint.RestoreOptions{})
	if !errors.Is(err, checkpoint.ErrConflict) || !strings.Contains(err.Error(), "data.bin") {
		t.Fatalf("rewind over an uncaptured file: %v; want ErrConflict naming data.bin", err)
	}
	if d := diffSnapshots(before, snapshot(t, work)); d != "" {
		t.Fatalf("a refused rewind changed the workspace:\n%s", d)
	}
	if _, err := c.RestoreInPlace(ctx, work, first.ID, checkpoint.RestoreOptions{Overwrite: true}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(work, "data.bin")); string(data) != "small\n" {
		t.Fatalf("data.bin = %q after an overwriting rewind", data)
	}
}

// A rewind to a checkpoint another host took fetches only what this host lacks.
func TestRewindFetchesOnlyWhatDiffers(t *testing.T) {
	ctx := context.Background()
	store := stores["file"](t)
	work := t.TempDir()
	files := map[string]string{}
	for i := range 100 {
		files[filepathFor(i)] = itoa(i) + "\n"
	}
	write(t, work, files)
	a := host(t, store)
	base := capture(t, a, work)
	dest := filepath.Join(t.TempDir(), "w")
	b := host(t, store)
	if _, err := b.Restore(ctx, base.ID, dest); err != nil {
		t.Fatal(err)
	}
	// Host A goes on: one file changes; host B rewinds its copy to that.
	write(t, work, map[string]string{filepathFor(3): "changed on A\n"})
	next := capture(t, a, work)
	res, err := b.RestoreInPlace(ctx, dest, next.ID, checkpoint.RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// One blob, its two directories, the root.
	if res.Fetched != 4 || res.Written != 1 || res.Removed != 0 {
		t.Fatalf("rewind = %+v; want 4 objects fetched, 1 file written", res)
	}
	if d := diffSnapshots(snapshot(t, work), snapshot(t, dest)); d != "" {
		t.Fatalf("host B differs from host A:\n%s", d)
	}
}

// Operations on one workspace from several checkpointers sharing a cache (two
// processes on one host) are serialised, and each gets a whole checkpoint.
func TestConcurrentCapturesShareACache(t *testing.T) {
	store := stores["file"](t)
	cache := filepath.Join(t.TempDir(), "cache")
	work := t.TempDir()
	write(t, work, map[string]string{"a.txt": "a\n", "b/c.txt": "c\n"})
	var wg sync.WaitGroup
	ids := make([]string, 6)
	for i := range ids {
		c, err := checkpoint.New(checkpoint.Config{Store: store, CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			r, err := c.Capture(context.Background(), work, checkpoint.CaptureOptions{Session: "s1"})
			if err != nil {
				t.Error(err)
			}
			ids[i] = r.ID
		})
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("ids %v differ", ids)
		}
	}
	if _, err := host(t, store).Restore(context.Background(), ids[0], filepath.Join(t.TempDir(), "w")); err != nil {
		t.Fatal(err)
	}
}

// Last tells a host's own view of a workspace: what it last captured or restored
// there, nothing on a host that never held it, and not what another host did since.
func TestLastIsThisHostsOwnLatest(t *testing.T) {
	ctx := context.Background()
	store := stores["file"](t)
	a, b := host(t, store), host(t, store)
	work := t.TempDir()
	write(t, work, map[string]string{"f1.txt": "1\n"})
	first := capture(t, a, work)
	if got, err := a.Last(ctx, work); err != nil || got != first.ID {
		t.Fatalf("host a after its capture: Last = %q %v, want %s", got, err, first.ID)
	}
	if got, err := b.Last(ctx, work); err != nil || got != "" {
		t.Fatalf("host b, which never held the workspace: Last = %q %v, want none", got, err)
	}
	// Host b takes the session on its own disk and goes on.
	other := t.TempDir()
	if _, err := b.Restore(ctx, first.ID, other); err != nil {
		t.Fatal(err)
	}
	write(t, other, map[string]string{"f2.txt": "2\n"})
	second := capture(t, b, other)
	if got, _ := b.Last(ctx, other); got != second.ID {
		t.Errorf("host b after its capture: Last = %q, want %s", got, second.ID)
	}
	if got, _ := a.Last(ctx, work); got != first.ID {
		t.Errorf("host a after host b went on: Last = %q, want its own %s (stale, so a later run restores)", got, first.ID)
	}
	res, err := a.RestoreInPlace(ctx, work, second.ID, checkpoint.RestoreOptions{Overwrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := a.Last(ctx, work); got != second.ID || res.Written != 1 {
		t.Errorf("host a after catching up: Last = %q (want %s), wrote %d", got, second.ID, res.Written)
	}
}
