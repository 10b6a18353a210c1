package hooks

import "time"

// OutputCap bounds what is kept of a hook's stdout and of its stderr. A hook's
// output is recorded in workflow history (activity result) and Temporal refuses
// payloads over 2 MB, so a hook printing megabytes is cut, with a note, rather than
// failing the turn.
const OutputCap = 64 << 10

// Invocation is one hook command to run: the input of the hook activity.
type Invocation struct {
	// Event and ToolUseID say what the hook runs for, for people reading history.
	Event     Event  `json:"event"`
	ToolUseID string `json:"tool_use_id"`
	// Command is run with /bin/sh -c, as Claude Code runs it.
	Command string `json:"command"`
	// TimeoutSeconds is the hook's timeout; 0 means DefaultTimeout.
	TimeoutSeconds float64 `json:"timeout_seconds,omitempty"`
	// Cwd is the directory the command runs in; ProjectDir becomes its
	// CLAUDE_PROJECT_DIR.
	Cwd        string `json:"cwd"`
	ProjectDir string `json:"project_dir"`
	// Stdin is the hook input JSON (see Input).
	Stdin string `json:"stdin"`
	// SessionID is the turn's session, for traces and logs.
	SessionID string `json:"session_id,omitempty"`
}

// Timeout is the invocation's timeout.
func (inv Invocation) Timeout() time.Duration {
	return Command{Timeout: inv.TimeoutSeconds}.TimeoutDuration()
}

// Run is how a hook command ended: the result of the hook activity, recorded in
// history so that Parse gives the same answer on replay.
type Run struct {
	Command  string `json:"command"`
	ExitCode int    `json:"exit_code"`
	// Stdout and Stderr are at most OutputCap bytes each, plus a note when cut.
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// StdoutBytes and StderrBytes are the full sizes the hook printed.
	StdoutBytes int64 `json:"stdout_bytes"`
	StderrBytes int64 `json:"stderr_bytes"`
	// TimedOut: the hook ran past its timeout and its process group was killed.
	TimedOut bool `json:"timed_out,omitempty"`
	// Timeout is the timeout that was in force, for the message.
	Timeout time.Duration `json:"timeout"`
	// Duration is how long the command ran.
	Duration time.Duration `json:"duration"`
	// Failure is set when the hook could not be run at all (no shell, a lost
	// worker); the call proceeds, as for any non-blocking hook error.
	Failure string `json:"failure,omitempty"`
}

// Truncated reports whether stdout or stderr was cut to OutputCap.
func (r Run) Truncated() bool {
	return r.StdoutBytes > OutputCap || r.StderrBytes > OutputCap
}
