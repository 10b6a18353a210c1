package webfetch

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// An endless body: the fetch stops at the size limit, says so, and closes the
// connection instead of reading on.
func TestHugeResponseCapped(t *testing.T) {
	stopped := make(chan int64, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		var written int64
		for {
			n, err := w.Write(chunk)
			written += int64(n)
			if err != nil {
				stopped <- written
				return
			}
		}
	})
	s := newSite(t, mux)
	const limit = 1 << 20
	res, err := local(WithMaxBytes(limit)).Fetch(ctx(t), s.URL+"/huge")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || len(res.Content) != limit || res.Bytes != limit {
		t.Fatalf("truncated %v, %d chars, %d bytes; want %d", res.Truncated, len(res.Content), res.Bytes, limit)
	}
	select {
	case n := <-stopped:
		t.Logf("the server wrote %d bytes before the connection closed", n)
	case <-time.After(30 * time.Second):
		t.Fatal("the server is still writing: the connection was not closed")
	}
}

// A body under the limit is not marked truncated, even at exactly the limit.
func TestBodyAtTheLimitIsWhole(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, strings.Repeat("y", 1000))
	})
	s := newSite(t, mux)
	res, err := local(WithMaxBytes(1000)).Fetch(ctx(t), s.URL)
	if err != nil || res.Truncated || len(res.Content) != 1000 {
		t.Fatalf("%v truncated=%v len=%d", err, res.Truncated, len(res.Content))
	}
}

// A server that sends headers and then nothing (or nothing at all) hits the time
// limit.
func TestSlowResponseHitsTheTimeLimit(t *testing.T) {
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/slow-body", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<p>start")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	mux.HandleFunc("/slow-headers", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	s := newSite(t, mux)
	t.Cleanup(func() { close(release) }) // runs before the server's Close
	f := local(WithTimeout(300 * time.Millisecond))
	for _, path := range []string{"/slow-body", "/slow-headers"} {
		_, err := f.Fetch(ctx(t), s.URL+path)
		if !errors.Is(err, ErrTimeout) {
			t.Errorf("%s: %v, want ErrTimeout", path, err)
		}
	}
}

func TestCacheFor15Minutes(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "<p>visit %s</p>", r.URL.Path)
	})
	s := newSite(t, mux)
	clock := newFakeClock()
	f := local(WithClock(clock.Now))
	first, err := f.Fetch(ctx(t), s.URL+"/a")
	if err != nil || first.Cached {
		t.Fatalf("first: %+v %v", first, err)
	}
	clock.Advance(DefaultCacheTTL - time.Second)
	again, err := f.Fetch(ctx(t), s.URL+"/a#another-fragment")
	if err != nil || !again.Cached || again.Content != first.Content || s.hits.Load() != 1 {
		t.Fatalf("within 15 minutes: cached %v, %d requests, %v", again.Cached, s.hits.Load(), err)
	}
	clock.Advance(2 * time.Second)
	later, err := f.Fetch(ctx(t), s.URL+"/a")
	if err != nil || later.Cached || s.hits.Load() != 2 {
		t.Fatalf("after 15 minutes: cached %v, %d requests, %v", later.Cached, s.hits.Load(), err)
	}
}

// The cache keeps to its size: the least recently used entry goes first.
func TestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	clock := newFakeClock()
	c := newCache(time.Hour, 300, clock.Now)
	entry := func(s string) Result { return Result{Content: strings.Repeat(s, 100)} }
	c.put("a", entry("a"))
	c.put("b", entry("b"))
	if _, ok := c.get("a"); !ok { // a is now the most recently used
		t.Fatal("a missing")
	}
	c.put("c", entry("c")) // over 300 bytes: b goes
	if _, ok := c.get("b"); ok {
		t.Error("b kept: the least recently used entry should have gone")
	}
	for _, k := range []string{"a", "c"} {
		if _, ok := c.get(k); !ok {
			t.Errorf("%s evicted", k)
		}
	}
	c.put("big", entry(strings.Repeat("z", 4))) // larger than the cache: not kept
	if _, ok := c.get("big"); ok || c.bytes > 300 {
		t.Errorf("an entry larger than the cache was kept (%d bytes)", c.bytes)
	}
}

// One fetcher serves concurrent calls (a worker runs safe tools in parallel).
func TestConcurrentFetches(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, "<p>%s</p>", r.URL.Path) })
	s := newSite(t, mux)
	f := local(WithCache(DefaultCacheTTL, 200)) // small: entries are evicted while others are read
	errs := make(chan error, 32)
	for i := range 32 {
		go func() {
			path := fmt.Sprintf("/p%d", i%4)
			res, err := f.Fetch(ctx(t), s.URL+path)
			if err == nil && res.Content != path {
				err = fmt.Errorf("%s: got %q", path, res.Content)
			}
			errs <- err
		}()
	}
	for range 32 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
