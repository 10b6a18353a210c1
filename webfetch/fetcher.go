package webfetch

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Defaults of a Fetcher; the options change them.
const (
	DefaultMaxRedirects = 5
	DefaultMaxBytes     = 10 << 20
	DefaultTimeout      = 60 * time.Second
	DefaultCacheTTL     = 15 * time.Minute
	DefaultCacheBytes   = 50 << 20
	// MaxURLLength is the longest URL fetched, as in Claude Code.
	MaxURLLength = 2000
	// UserAgent is sent with every request.
	UserAgent = "toolpipe-webfetch/1 (+https://github.com/toolpipe/toolpipe)"
)

// dialTimeout bounds one connection attempt; the fetch's time limit bounds all.
const dialTimeout = 15 * time.Second

// Fetcher fetches pages; it is safe for concurrent use and keeps its cache and
// idle connections between fetches, so a worker holds one.
type Fetcher struct {
	allowPrivate bool
	maxRedirects int
	maxBytes     int64
	timeout      time.Duration
	cacheTTL     time.Duration
	cacheBytes   int64
	now          func() time.Time

	transport *http.Transport
	cache     *cache
}

// Option changes a Fetcher's defaults.
type Option func(*Fetcher)

// WithAllowPrivate lets the fetcher reach loopback, private and link-local
// addresses (an intranet wiki, a local dev server). Off by default.
func WithAllowPrivate(allow bool) Option { return func(f *Fetcher) { f.allowPrivate = allow } }

// WithMaxRedirects sets how many same-host redirects are followed.
func WithMaxRedirects(n int) Option { return func(f *Fetcher) { f.maxRedirects = n } }

// WithMaxBytes sets how much of a response body is read; the rest is not read.
func WithMaxBytes(n int64) Option { return func(f *Fetcher) { f.maxBytes = n } }

// WithTimeout sets the time limit of a whole fetch.
func WithTimeout(d time.Duration) Option { return func(f *Fetcher) { f.timeout = d } }

// WithCache sets how long results are kept (0: not cached) and the cache's size
// in bytes.
func WithCache(ttl time.Duration, maxBytes int64) Option {
	return func(f *Fetcher) { f.cacheTTL, f.cacheBytes = ttl, maxBytes }
}

// WithClock replaces time.Now for the cache's expiry, for tests.
func WithClock(now func() time.Time) Option { return func(f *Fetcher) { f.now = now } }

// New returns a fetcher with the defaults changed by opts.
func New(opts ...Option) *Fetcher {
	f := &Fetcher{
		maxRedirects: DefaultMaxRedirects, maxBytes: DefaultMaxBytes, timeout: DefaultTimeout,
		cacheTTL: DefaultCacheTTL, cacheBytes: DefaultCacheBytes, now: time.Now,
	}
	for _, o := range opts {
		o(f)
	}
	f.transport = &http.Transport{
		// No proxy from the environment: the guard checks the address connected to,
		// and through a proxy that would be the proxy's.
		Proxy:               nil,
		DialContext:         newDialer(f.allowPrivate).DialContext,
		ForceAttemptHTTP2:   true,
		TLSHandshakeTimeout: 10 * time.Second,
		MaxIdleConns:        16,
		IdleConnTimeout:     30 * time.Second,
	}
	f.cache = newCache(f.cacheTTL, f.cacheBytes, f.now)
	return f
}

// AllowsPrivate reports whether the fetcher reaches private addresses.
func (f *Fetcher) AllowsPrivate() bool { return f.allowPrivate }

// Result is a fetched page, or a redirect to another host.
type Result struct {
	// URL is the URL requested (after http was upgraded to https); FinalURL the one
	// that answered, after same-host redirects.
	URL, FinalURL string
	// Status is the final HTTP status code.
	Status int
	// ContentType is the response's media type, such as text/html.
	ContentType string
	// Content is the page as markdown (HTML) or as it is (text, JSON).
	Content string
	// Markdown says Content was converted from HTML.
	Markdown bool
	// Truncated says the body was larger than the size limit and only its start
	// was read.
	Truncated bool
	// Bytes is how many body bytes were read.
	Bytes int64
	// Redirect, when set, is a redirect to another host that was not followed:
	// Content is empty.
	Redirect *Redirect
	// Cached says the result came from the cache.
	Cached bool
}

// Redirect is a redirect the fetcher did not follow.
type Redirect struct {
	// From is the URL that redirected, To where it points (absolute).
	From, To string
	// Status is the redirect's HTTP status (301, 302, 303, 307, 308).
	Status int
}

// Fetch gets rawURL. Failures are typed: *InvalidURLError, *BlockedError,
// *TooManyRedirectsError, *StatusError, *UnsupportedContentError, ErrTimeout; a
// cancelled ctx returns ctx's error.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) (Result, error) {
	u, err := parseURL(rawURL)
	if err != nil {
		return Result{}, err
	}
	key := u.String()
	if res, ok := f.cache.get(key); ok {
		res.Cached = true
		return res, nil
	}
	fctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	res, err := f.get(fctx, u)
	if err != nil {
		var blocked *BlockedError
		switch {
		case ctx.Err() != nil:
			return Result{}, ctx.Err()
		case errors.Is(err, context.DeadlineExceeded):
			return Result{}, ErrTimeout
		case errors.As(err, &blocked):
			blocked.Host = u.Hostname()
			return Result{}, blocked
		}
		return Result{}, err
	}
	if res.Redirect == nil {
		f.cache.put(key, res)
	}
	return res, nil
}
