package filesearch

import (
	"container/heap"
	"sort"
)

// stamped is a path with its modification time.
type stamped struct {
	mtime int64
	path  string
}

func (a stamped) before(b stamped) bool {
	if a.mtime != b.mtime {
		return a.mtime < b.mtime
	}
	return a.path < b.path
}

// oldest keeps the n oldest paths seen (ties by path): a max-heap whose root is
// the newest kept, replaced when an older one arrives. Memory is O(n) however
// many are offered.
type oldest struct {
	n int
	h stampHeap
}

func newOldest(n int) *oldest { return &oldest{n: n} }

func (o *oldest) add(mtime int64, path string) {
	s := stamped{mtime, path}
	switch {
	case len(o.h) < o.n:
		heap.Push(&o.h, s)
	case s.before(o.h[0]):
		o.h[0] = s
		heap.Fix(&o.h, 0)
	}
}

// sorted returns the kept paths, oldest first.
func (o *oldest) sorted() []string {
	s := append([]stamped(nil), o.h...)
	sort.Slice(s, func(i, j int) bool { return s[i].before(s[j]) })
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x.path
	}
	return out
}

// stampHeap is a max-heap by (mtime, path).
type stampHeap []stamped

func (h stampHeap) Len() int           { return len(h) }
func (h stampHeap) Less(i, j int) bool { return h[j].before(h[i]) }
func (h stampHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *stampHeap) Push(x any)        { *h = append(*h, x.(stamped)) }
func (h *stampHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
