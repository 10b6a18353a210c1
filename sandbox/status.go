package sandbox

import "errors"

// Status says how this machine confines commands: with bubblewrap, with
// Landlock where bubblewrap cannot start, or not at all.
type Status struct {
	Bwrap bool
	// LandlockABI is the kernel's Landlock ABI when the fallback is used, 0
	// when there is none (or it is switched off).
	LandlockABI int
	// Reason is why bubblewrap cannot start, and what to do.
	Reason string
}

// Status probes this machine (once) and says what confines commands here.
func (l *Launcher) Status() Status {
	err := l.probe()
	if err == nil {
		return Status{Bwrap: true}
	}
	st := Status{Reason: err.Error()}
	var u *Unavailable
	if errors.As(err, &u) {
		st.Reason = u.Reason
	}
	if !l.DisableLandlock {
		st.LandlockABI = landlockABI()
	}
	return st
}

// Notice is what a worker says once at start when bubblewrap cannot confine
// the commands that run without approval, "" when it can.
func (s Status) Notice() string {
	switch {
	case s.Bwrap:
		return ""
	case s.LandlockABI >= 1:
		return "toolpipe: no bubblewrap for the read-only sandbox: " + s.Reason + ". Until then Bash commands that run without approval " +
			"because they only read are confined by Landlock (read-only file system, credentials and state hidden, no sockets), without a PID namespace."
	}
	return "toolpipe: no sandbox: " + s.Reason + "; and the kernel has no Landlock. Bash commands that run without approval " +
		"because they only read are judged by the read-only classifier alone and run unconfined."
}

// String is one line for `agent status`.
func (s Status) String() string {
	switch {
	case s.Bwrap:
		return "bubblewrap: read-only commands run in the read-only sandbox (no writes, no network, no Unix sockets, credentials and state hidden, own PID namespace)"
	case s.LandlockABI >= 1:
		return "Landlock (no bubblewrap: " + s.Reason + "): read-only commands confined, without a PID namespace"
	}
	return "none (" + s.Reason + "; no Landlock): read-only commands run unconfined, on the classifier's word"
}

// NoBwrapForTests is a Launcher that never uses bubblewrap, for tests and
// benchmarks of the Landlock fallback in other packages.
func NoBwrapForTests() *Launcher { return &Launcher{noBwrap: true} }
