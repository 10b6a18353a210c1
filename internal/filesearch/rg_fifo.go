package filesearch

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrRgBlockedOnFIFO says ripgrep was stopped because it was waiting to open a
// FIFO. ripgrep skips FIFOs it meets in a walk, but opens every ignore file
// (.gitignore, .ignore, .rgignore) it finds, and a FIFO by one of those names
// blocks it for ever. The caller searches again with the Go engine, which refuses
// to open anything but a regular file (internal/safefile).
var ErrRgBlockedOnFIFO = errors.New("ripgrep was waiting to open a FIFO (named pipe) and was stopped")

// fifoPoll is how often a running rg is checked for a FIFO open.
const fifoPoll = 200 * time.Millisecond

// watchFIFOOpen calls blocked once if a thread of process pid waits in the
// kernel for the other end of a FIFO it is opening ("wait_for_partner" in
// /proc/PID/task/TID/wchan), until done is closed. Where /proc does not show
// it, nothing is detected and rg runs as before.
func watchFIFOOpen(pid int, done <-chan struct{}, blocked func()) {
	tasks := filepath.Join("/proc", strconv.Itoa(pid), "task")
	t := time.NewTicker(fifoPoll)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		ids, err := os.ReadDir(tasks)
		if err != nil {
			return // gone, or no /proc
		}
		for _, id := range ids {
			w, err := os.ReadFile(filepath.Join(tasks, id.Name(), "wchan"))
			if err == nil && strings.TrimSpace(string(w)) == "wait_for_partner" {
				blocked()
				return
			}
		}
	}
}
