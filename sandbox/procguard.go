package sandbox

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

// The worker's process holds what tools must not see: its environment (API
// keys, until the worker re-execs without them) and its memory. bubblewrap's PID
// namespace keeps the worker out of a sandboxed command's sight. The Landlock
// fallback has no such namespace, and Landlock does not stop reading another
// process's /proc/PID/environ or /proc/PID/mem, so two kernel rules do it
// instead: the worker makes itself undumpable (prctl PR_SET_DUMPABLE 0), which
// leaves those files to processes with CAP_SYS_PTRACE (or CAP_SYS_ADMIN or
// CAP_PERFMON) only, and the Landlock launcher drops every capability before it
// runs the command, so even a worker running as root is out of reach. An
// undumpable worker also keeps unsandboxed commands of the same (non-root) user
// out of its memory; it writes no core dump.

// protectProcess makes this process undumpable. Its children are not: execve
// resets the flag.
func protectProcess() {
	_ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}

// dropCapabilities empties the capability sets of the calling thread (bounding,
// ambient, inheritable, permitted, effective), so that what it executes has
// none, root or not. The caller has locked the goroutine to its thread and
// executes from it.
func dropCapabilities() error {
	runtime.LockOSThread()
	for c := 0; c <= unix.CAP_LAST_CAP+23; c++ { // past the last known one: newer kernels have more
		err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		if err == unix.EINVAL {
			break // no such capability
		}
		if err != nil && err != unix.EPERM {
			return fmt.Errorf("drop capability %d: %w", c, err)
		}
		// EPERM: no CAP_SETPCAP, so no capabilities to drop either (not root).
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && err != unix.EINVAL {
		return fmt.Errorf("clear ambient capabilities: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return nil
}
