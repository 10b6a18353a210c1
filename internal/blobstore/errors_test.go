package blobstore_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/internal/s3test"
)

// A store that stops answering is ErrUnreachable, never ErrNotFound: a caller must
// not take "cannot ask" for "not there" (and start a conversation over).
func TestUnreachableIsNotNotFound(t *testing.T) {
	srv := s3test.Start(t)
	s := open(t, blobstore.Config{URL: srv.URL("")})
	ctx := context.Background()
	k := key(t)(blobstore.MessageKey("sess-a", 1))
	if err := s.Put(ctx, k, []byte("{}"), blobstore.Exclusive); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	calls := map[string]func() error{
		"get":    func() error { _, err := s.Get(ctx, k); return err },
		"stat":   func() error { _, err := s.Stat(ctx, k); return err },
		"put":    func() error { return s.Put(ctx, k, []byte("{}"), blobstore.Exclusive) },
		"delete": func() error { return s.Delete(ctx, k) },
		"list": func() error {
			for _, err := range s.List(ctx, "sess-a/") {
				return err
			}
			return nil
		},
	}
	// In parallel: the SDK retries a refused connection a few times before it gives up.
	errs := make(map[string]error)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for op, call := range calls {
		wg.Go(func() {
			err := call()
			mu.Lock()
			errs[op] = err
			mu.Unlock()
		})
	}
	wg.Wait()
	for op, err := range errs {
		if !errors.Is(err, blobstore.ErrUnreachable) || errors.Is(err, blobstore.ErrNotFound) {
			t.Errorf("%s on a stopped server: %v, want ErrUnreachable", op, err)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, srv.Endpoint) || (op != "list" && !strings.Contains(msg, k.String())) {
			t.Errorf("%s: %q does not name the store and the key", op, msg)
		}
	}
}

func TestOpenChecksTheStore(t *testing.T) {
	srv := s3test.Start(t)
	ctx := context.Background()
	_, err := blobstore.Open(ctx, blobstore.Config{URL: srv.URL("no-such-bucket")})
	if !errors.Is(err, blobstore.ErrUnreachable) || !strings.Contains(err.Error(), "no-such-bucket") {
		t.Errorf("a bucket that does not exist: %v, want ErrUnreachable naming it", err)
	}
	// A root that is a file cannot hold objects.
	file := filepath.Join(t.TempDir(), "not-a-dir")
	os.WriteFile(file, nil, 0o600)
	if _, err := blobstore.Open(ctx, blobstore.Config{URL: "file://" + file}); err == nil {
		t.Errorf("a file as the root opened")
	}
	for _, bad := range []string{"file://relative/dir", "file://./x", "not a url", "nosuchscheme://x"} {
		if _, err := blobstore.Open(ctx, blobstore.Config{URL: bad}); err == nil {
			t.Errorf("Open(%q) succeeded", bad)
		}
	}
	if _, err := blobstore.Open(ctx, blobstore.Config{StateDir: "relative"}); err == nil {
		t.Errorf("a relative state directory opened")
	}
}

// Messages show the store's URL but never its credentials.
func TestRedact(t *testing.T) {
	for raw, secret := range map[string]string{
		"s3://AKIAEXAMPLE:hunter2@bucket?region=us-east-1":          "hunter2",
		"azblob://c?sig=s3cr3tsig&sv=2020":                          "s3cr3tsig",
		"s3://b?endpoint=http://127.0.0.1:9&session_token=tok3n123": "tok3n123",
	} {
		got := blobstore.Redact(raw)
		if strings.Contains(got, secret) || strings.Contains(got, "AKIAEXAMPLE") {
			t.Errorf("Redact(%q) = %q shows a credential", raw, got)
		}
	}
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	_, err := blobstore.Open(context.Background(), blobstore.Config{URL: "s3://user:hunter2@b?endpoint=http://127.0.0.1:1&region=x&use_path_style=true"})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("open error %v shows the password", err)
	}
}

func TestZeroKeyRefused(t *testing.T) {
	s := open(t, blobstore.Config{StateDir: t.TempDir()})
	if _, err := s.Get(context.Background(), blobstore.Key{}); !errors.Is(err, blobstore.ErrInvalidKey) {
		t.Errorf("zero key: %v", err)
	}
}
