package webfetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"
)

// site is a test web server on 127.0.0.1 that counts its requests.
type site struct {
	*httptest.Server
	hits atomic.Int64
}

func newSite(t *testing.T, mux *http.ServeMux) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// local is a fetcher that may reach the test servers on 127.0.0.1.
func local(opts ...Option) *Fetcher {
	return New(append([]Option{WithAllowPrivate(true)}, opts...)...)
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return c
}

// fakeClock is a settable clock for the cache.
type fakeClock struct{ now atomic.Pointer[time.Time] }

func newFakeClock() *fakeClock {
	c := &fakeClock{}
	t := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c.now.Store(&t)
	return c
}

func (c *fakeClock) Now() time.Time { return *c.now.Load() }

func (c *fakeClock) Advance(d time.Duration) {
	t := c.Now().Add(d)
	c.now.Store(&t)
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
