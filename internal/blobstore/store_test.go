package blobstore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/internal/s3test"
)

// backends opens one store per service the tests run against: the file:// default
// on a fresh state directory, and a real S3-compatible server over HTTP.
func backends(t *testing.T) map[string]func(t *testing.T) *blobstore.Store {
	return map[string]func(t *testing.T) *blobstore.Store{
		"file": func(t *testing.T) *blobstore.Store {
			return open(t, blobstore.Config{StateDir: t.TempDir()})
		},
		"s3": func(t *testing.T) *blobstore.Store {
			srv := s3test.Start(t)
			return open(t, blobstore.Config{URL: srv.URL("")})
		},
	}
}

func open(t *testing.T, cfg blobstore.Config) *blobstore.Store {
	t.Helper()
	s, err := blobstore.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// key returns a function that checks a key constructor's error: key(t)(HeadKey("s")).
func key(t testing.TB) func(blobstore.Key, error) blobstore.Key {
	return func(k blobstore.Key, err error) blobstore.Key {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
}

func TestPutGetStatDelete(t *testing.T) {
	for name, mk := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s, ctx := mk(t), context.Background()
			k := key(t)(blobstore.HeadKey("s1"))
			if _, err := s.Get(ctx, k); !errors.Is(err, blobstore.ErrNotFound) {
				t.Fatalf("get before put: %v, want ErrNotFound", err)
			}
			if ok, err := s.Exists(ctx, k); ok || err != nil {
				t.Fatalf("exists before put: %v %v", ok, err)
			}
			if err := s.Put(ctx, k, []byte("one"), blobstore.Replace); err != nil {
				t.Fatal(err)
			}
			if err := s.Put(ctx, k, []byte("second"), blobstore.Replace); err != nil {
				t.Fatal(err)
			}
			got, err := s.Get(ctx, k)
			if err != nil || string(got) != "second" {
				t.Fatalf("get = %q, %v; want the replacement", got, err)
			}
			a, err := s.Stat(ctx, k)
			if err != nil || a.Size != 6 || a.ModTime.IsZero() {
				t.Fatalf("stat = %+v, %v", a, err)
			}
			if err := s.Delete(ctx, k); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Stat(ctx, k); !errors.Is(err, blobstore.ErrNotFound) {
				t.Fatalf("stat after delete: %v, want ErrNotFound", err)
			}
		})
	}
}

func TestExclusiveKeepsTheFirst(t *testing.T) {
	for name, mk := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s, ctx := mk(t), context.Background()
			k := key(t)(blobstore.ToolResultKey("s1", "toolu_1", false))
			if err := s.Put(ctx, k, []byte("first"), blobstore.Exclusive); err != nil {
				t.Fatal(err)
			}
			err := s.Put(ctx, k, []byte("second"), blobstore.Exclusive)
			if !errors.Is(err, blobstore.ErrExist) {
				t.Fatalf("second exclusive put: %v, want ErrExist", err)
			}
			if !strings.Contains(err.Error(), k.String()) || !strings.Contains(err.Error(), s.URL()) {
				t.Errorf("error %q names neither the key nor the store", err)
			}
			if got, _ := s.Get(ctx, k); string(got) != "first" {
				t.Fatalf("stored %q, want the first object", got)
			}
		})
	}
}

// Two writers streaming the same exclusive key: the service decides at commit, the
// first to commit wins and the other stores nothing.
func TestExclusiveStreamsRace(t *testing.T) {
	for name, mk := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s, ctx := mk(t), context.Background()
			k := key(t)(blobstore.MessageKey("s1", 3))
			a, err := s.Create(ctx, k, blobstore.Exclusive)
			if err != nil {
				t.Fatal(err)
			}
			b, err := s.Create(ctx, k, blobstore.Exclusive)
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(a, "from a")
			io.WriteString(b, "from b")
			if err := b.Commit(); err != nil {
				t.Fatal(err)
			}
			if err := a.Commit(); !errors.Is(err, blobstore.ErrExist) {
				t.Fatalf("later commit: %v, want ErrExist", err)
			}
			if got, _ := s.Get(ctx, k); string(got) != "from b" {
				t.Fatalf("stored %q, want the first committed", got)
			}
			// A third one is refused at once where the store can tell (file://) or at
			// commit (S3); either way it stores nothing.
			if c, err := s.Create(ctx, k, blobstore.Exclusive); err == nil {
				io.WriteString(c, "from c")
				err = c.Commit()
				if !errors.Is(err, blobstore.ErrExist) {
					t.Fatalf("third: %v, want ErrExist", err)
				}
			} else if !errors.Is(err, blobstore.ErrExist) {
				t.Fatalf("third create: %v", err)
			}
		})
	}
}

// Many stores (as many processes would: each its own gocloud bucket) racing for one
// exclusive key: exactly one wins, and the stored object is the winner's whole one.
// gocloud's file writer checks and renames under a per-bucket mutex, so two buckets
// both "win" and the later rename replaces the first; put_file.go links instead.
func TestExclusiveAcrossStores(t *testing.T) {
	for name, mk := range map[string]func(t *testing.T) func() *blobstore.Store{
		"file": func(t *testing.T) func() *blobstore.Store {
			dir := t.TempDir()
			return func() *blobstore.Store { return open(t, blobstore.Config{StateDir: dir}) }
		},
		"s3": func(t *testing.T) func() *blobstore.Store {
			srv := s3test.Start(t)
			return func() *blobstore.Store { return open(t, blobstore.Config{URL: srv.URL("")}) }
		},
	} {
		t.Run(name, func(t *testing.T) {
			newStore := mk(t)
			const writers, rounds = 8, 40
			stores := make([]*blobstore.Store, writers)
			for i := range stores {
				stores[i] = newStore()
			}
			payload := func(w int) []byte { return bytes.Repeat([]byte{byte('a' + w)}, 64<<10) }
			for r := range rounds {
				k := key(t)(blobstore.ToolResultKey("race", fmt.Sprintf("toolu_%d", r), false))
				var wg sync.WaitGroup
				wins := make(chan int, writers)
				for w := range writers {
					wg.Go(func() {
						err := stores[w].Put(context.Background(), k, payload(w), blobstore.Exclusive)
						switch {
						case err == nil:
							wins <- w
						case !errors.Is(err, blobstore.ErrExist):
							t.Errorf("writer %d: %v", w, err)
						}
					})
				}
				wg.Wait()
				close(wins)
				var winners []int
				for w := range wins {
					winners = append(winners, w)
				}
				if len(winners) != 1 {
					t.Fatalf("round %d: %d writers won (%v), want exactly one", r, len(winners), winners)
				}
				got, err := stores[0].Get(context.Background(), k)
				if err != nil || !bytes.Equal(got, payload(winners[0])) {
					t.Fatalf("round %d: stored object is not the winner's (%d bytes, %v)", r, len(got), err)
				}
			}
		})
	}
}

func TestAbortStoresNothing(t *testing.T) {
	for name, mk := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s, ctx := mk(t), context.Background()
			k := key(t)(blobstore.BackgroundOutputKey("s1", "b1"))
			w, err := s.Create(ctx, k, blobstore.Exclusive)
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(w, "half an output")
			if err := w.Abort(); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Stat(ctx, k); !errors.Is(err, blobstore.ErrNotFound) {
				t.Fatalf("after abort: %v, want ErrNotFound", err)
			}
			if err := s.Put(ctx, k, []byte("whole"), blobstore.Exclusive); err != nil {
				t.Fatalf("the key must still be free: %v", err)
			}
			if path, ok := s.LocalPath(k); ok {
				entries, _ := os.ReadDir(filepath.Dir(path))
				if len(entries) != 1 {
					t.Fatalf("left behind in %s: %v", filepath.Dir(path), entries)
				}
			}
		})
	}
}

func TestStreamedReadAndWrite(t *testing.T) {
	for name, mk := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s, ctx := mk(t), context.Background()
			k := key(t)(blobstore.ToolResultKey("s1", "toolu_big", false))
			big := bytes.Repeat([]byte("0123456789abcdef"), 1<<17) // 2 MiB: a multipart upload on S3
			w, err := s.Create(ctx, k, blobstore.Exclusive)
			if err != nil {
				t.Fatal(err)
			}
			for chunk := range slices.Chunk(big, 1000) {
				if _, err := w.Write(chunk); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Commit(); err != nil {
				t.Fatal(err)
			}
			r, err := s.NewReader(ctx, k)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(got, big) {
				t.Fatalf("read back %d bytes, %v; want %d", len(got), err, len(big))
			}
		})
	}
}

func TestListByPrefix(t *testing.T) {
	for name, mk := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s, ctx := mk(t), context.Background()
			var want []string
			for seq := 1; seq <= 3; seq++ {
				k := key(t)(blobstore.RecordsKey("s1", seq))
				want = append(want, k.String())
				if err := s.Put(ctx, k, []byte("[]"), blobstore.Exclusive); err != nil {
					t.Fatal(err)
				}
			}
			// Siblings that share the prefix's text but not its directory.
			for _, k := range []blobstore.Key{key(t)(blobstore.HeadKey("s1")), key(t)(blobstore.RecordsKey("s10", 1))} {
				if err := s.Put(ctx, k, []byte("{}"), blobstore.Replace); err != nil {
					t.Fatal(err)
				}
			}
			// A write in progress is not an object yet.
			w, err := s.Create(ctx, key(t)(blobstore.RecordsKey("s1", 4)), blobstore.Exclusive)
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(w, "[")
			defer w.Abort()
			var got []string
			for e, err := range s.List(ctx, "s1/conversation/records/") {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, e.Key)
				if _, err := blobstore.ParseKey(e.Key); err != nil {
					t.Errorf("listed key does not parse: %v", err)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("listed %q, want %q", got, want)
			}
		})
	}
}

func TestLocalPath(t *testing.T) {
	dir := t.TempDir()
	s := open(t, blobstore.Config{StateDir: dir})
	k := key(t)(blobstore.ToolResultKey("s1", "toolu_1", true))
	if p, ok := s.LocalPath(k); !ok || p != filepath.Join(dir, "s1", "tool-results", "toolu_1.json") {
		t.Fatalf("LocalPath = %q, %v", p, ok)
	}
	srv := s3test.Start(t)
	if p, ok := open(t, blobstore.Config{URL: srv.URL("")}).LocalPath(k); ok {
		t.Fatalf("an S3 store has no local path, got %q", p)
	}
}

// A batch's puts are visible at once, keep the exclusive rule, and Flush succeeds.
func TestBatch(t *testing.T) {
	for name, mk := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s, ctx := mk(t), context.Background()
			b := s.Batch()
			k := key(t)(blobstore.CheckpointObjectKey(strings.Repeat("ab", 32)))
			if err := b.Put(ctx, k, []byte("obj"), blobstore.Exclusive); err != nil {
				t.Fatal(err)
			}
			if err := b.Put(ctx, k, []byte("other"), blobstore.Exclusive); !errors.Is(err, blobstore.ErrExist) {
				t.Fatalf("second exclusive put in a batch: %v", err)
			}
			if got, err := s.Get(ctx, k); err != nil || string(got) != "obj" {
				t.Fatalf("get before flush = %q, %v", got, err)
			}
			if err := b.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// PutFile stores a local file's bytes exclusively; on file:// it links the file.
func TestBatchPutFile(t *testing.T) {
	for name, mk := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s, ctx := mk(t), context.Background()
			src := filepath.Join(t.TempDir(), "obj")
			os.WriteFile(src, []byte("object bytes"), 0o444)
			k := key(t)(blobstore.CheckpointObjectKey(strings.Repeat("cd", 32)))
			b := s.Batch()
			if err := b.PutFile(ctx, k, src); err != nil {
				t.Fatal(err)
			}
			if err := b.PutFile(ctx, k, src); !errors.Is(err, blobstore.ErrExist) {
				t.Fatalf("second PutFile: %v, want ErrExist", err)
			}
			if err := b.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			if got, err := s.Get(ctx, k); err != nil || string(got) != "object bytes" {
				t.Fatalf("get = %q, %v", got, err)
			}
		})
	}
}
