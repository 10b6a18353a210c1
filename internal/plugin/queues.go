package plugin

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/toolpipe/toolpipe/internal/statedir"
)

// Many clients share one state directory and its embedded server. Each starter
// process runs the workflows it starts on a task queue of its own (ProcessQueue),
// so no process ever picks up, or cancels by exiting, another invocation's tools.
// A process holds its queue's lock (<state>/queues/) while its worker polls it: a
// free lock on a process queue means the process that ran those workflows has
// exited (the kernel drops the lock of a dead process), so they are paused until a
// client attaches and adopts the queue.

// processQueueSep separates the configured task queue from a process's suffix.
const processQueueSep = "@"

// ProcessQueue names a new task queue for this process's workflows: the configured
// queue, the host, the pid and a random suffix (pids are reused).
func ProcessQueue(base string) string {
	host, _ := os.Hostname()
	var r [4]byte
	_, _ = rand.Read(r[:])
	return fmt.Sprintf("%s%s%s-%d-%s", base, processQueueSep, host, os.Getpid(), hex.EncodeToString(r[:]))
}

// IsProcessQueue reports whether q is some process's queue of the base queue.
func IsProcessQueue(q, base string) bool {
	return strings.HasPrefix(q, base+processQueueSep)
}

// QueueLock is a held lock on a task queue of the state directory.
type QueueLock struct{ f *os.File }

func queueLockPath(stateDir, queue string) string {
	sum := sha256.Sum256([]byte(queue))
	return filepath.Join(statedir.Dir(stateDir).Queues(), hex.EncodeToString(sum[:16])+".lock")
}

func openQueueLock(stateDir, queue string) (*os.File, error) {
	path := queueLockPath(stateDir, queue)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("queue lock: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("queue lock: %w", err)
	}
	return f, nil
}

// TryLockQueue takes the queue's lock without waiting; ok is false when another
// process (or another lock in this one) holds it.
func TryLockQueue(stateDir, queue string) (l *QueueLock, ok bool, err error) {
	f, err := openQueueLock(stateDir, queue)
	if err != nil {
		return nil, false, err
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		f.Close()
		return nil, false, nil
	}
	if err != nil {
		f.Close()
		return nil, false, fmt.Errorf("queue lock: %w", err)
	}
	return &QueueLock{f: f}, true, nil
}

// WaitLockQueue takes the queue's lock, waiting while another process holds it:
// it returns when that process exits, however it exits.
func WaitLockQueue(stateDir, queue string) (*QueueLock, error) {
	f, err := openQueueLock(stateDir, queue)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("queue lock: %w", err)
	}
	return &QueueLock{f: f}, nil
}

// Release drops the lock.
func (l *QueueLock) Release() {
	if l != nil {
		l.f.Close()
	}
}

// QueueServed reports whether a live process holds the queue's lock, i.e. runs a
// worker on it.
func QueueServed(stateDir, queue string) bool {
	l, ok, err := TryLockQueue(stateDir, queue)
	if err != nil {
		return false
	}
	if ok {
		l.Release()
	}
	return !ok
}
