// Package proctest handles the processes of end-to-end tests: it finds processes and
// tells whether they are gone, for tests that check that toolpipe leaves no process
// behind (it reads /proc, Linux), starts a `starter dev` and waits until it serves,
// and keeps what a process or a logger writes while the test reads it (LockedBuffer).
package proctest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Find returns the pid of the process whose command line is exactly args, or 0.
func Find(args ...string) int {
	want := strings.Join(args, "\x00") + "\x00"
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline"); err == nil && string(b) == want {
			return pid
		}
	}
	return 0
}

// Gone reports whether pid runs nothing: no such process, or a zombie not reaped yet.
func Gone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	fields := strings.Fields(string(b))
	return len(fields) <= 2 || fields[2] == "Z"
}
