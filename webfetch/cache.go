package webfetch

import (
	"container/list"
	"sync"
	"time"
)

// cache keeps recent results by URL for a time-to-live, within a total size: the
// least recently used entries go first when it is full. A model that fetches the
// same page twice in a session (to ask another question of it) then costs one
// request.
type cache struct {
	ttl      time.Duration
	maxBytes int64
	now      func() time.Time

	mu    sync.Mutex
	bytes int64
	order *list.List // front: most recently used; values are *cacheEntry
	byURL map[string]*list.Element
}

type cacheEntry struct {
	url     string
	res     Result
	expires time.Time
	size    int64
}

func newCache(ttl time.Duration, maxBytes int64, now func() time.Time) *cache {
	return &cache{ttl: ttl, maxBytes: maxBytes, now: now, order: list.New(), byURL: map[string]*list.Element{}}
}

// get returns the unexpired result for url.
func (c *cache) get(url string) (Result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byURL[url]
	if !ok {
		return Result{}, false
	}
	e := el.Value.(*cacheEntry)
	if !c.now().Before(e.expires) {
		c.remove(el)
		return Result{}, false
	}
	c.order.MoveToFront(el)
	return e.res, true
}

// put stores res for url; a result larger than the whole cache is not kept.
func (c *cache) put(url string, res Result) {
	size := int64(len(url) + len(res.Content) + len(res.FinalURL) + len(res.ContentType))
	if c.ttl <= 0 || size > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byURL[url]; ok {
		c.remove(el)
	}
	e := &cacheEntry{url: url, res: res, expires: c.now().Add(c.ttl), size: size}
	c.byURL[url] = c.order.PushFront(e)
	c.bytes += size
	for c.bytes > c.maxBytes {
		c.remove(c.order.Back())
	}
}

func (c *cache) remove(el *list.Element) {
	e := c.order.Remove(el).(*cacheEntry)
	delete(c.byURL, e.url)
	c.bytes -= e.size
}
