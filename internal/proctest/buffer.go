package proctest

import (
	"bytes"
	"sync"
)

// LockedBuffer is a bytes.Buffer that others write while the test reads it: a
// process's stderr (StartDev), or a logger that the worker's goroutines share. Its
// zero value is ready to use.
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p; it is safe to call from several goroutines.
func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns what has been written so far.
func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
