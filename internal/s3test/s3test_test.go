package s3test_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/internal/s3test"
)

// The server as a separate process: a store opened on its URL works, conditional
// puts included, and with -dir a restarted server still has the objects.
func TestProcessKeepsObjectsAcrossRestarts(t *testing.T) {
	for _, kv := range s3test.Env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	dir := t.TempDir()
	ctx := context.Background()
	k, _ := blobstore.MessageKey("s1", 1)

	srv := s3test.StartProcess(t, "-dir", dir, "-bucket", "fleet,other")
	if srv.Bucket != "fleet" {
		t.Fatalf("bucket %q, want the first named", srv.Bucket)
	}
	s, err := blobstore.Open(ctx, blobstore.Config{URL: srv.URL("")})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, k, []byte("hello"), blobstore.Exclusive); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, k, []byte("again"), blobstore.Exclusive); !errors.Is(err, blobstore.ErrExist) {
		t.Fatalf("conditional put over HTTP: %v, want ErrExist", err)
	}
	s.Close()
	srv.Stop()

	srv = s3test.StartProcess(t, "-dir", dir, "-bucket", "fleet")
	s, err = blobstore.Open(ctx, blobstore.Config{URL: srv.URL("")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, err := s.Get(ctx, k); err != nil || string(got) != "hello" {
		t.Fatalf("after a restart: %q, %v", got, err)
	}
}
