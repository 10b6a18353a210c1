package tool

// BashInput is the input of Bash. It lives here, not with the Bash tool
// (activities/bash.go), because the turn reads it too: a command run in the
// background is handed to the session (background.go), and the sandbox settings
// allow sandboxed commands without asking.
type BashInput struct {
	Command     string `json:"command"`
	TimeoutMs   int    `json:"timeout,omitempty"`
	Description string `json:"description,omitempty"`
	// DangerouslyDisableSandbox asks to run the command outside the sandbox; it
	// is honoured only where sandbox.allowUnsandboxedCommands allows it, and then
	// the command needs the usual permission.
	DangerouslyDisableSandbox bool `json:"dangerouslyDisableSandbox,omitempty"`
	// RunInBackground starts the command as a background task of the session and
	// answers at once with its id and output file (background.go); TimeoutMs then
	// bounds how long it may run (BashBackgroundDefaultTimeoutMs).
	RunInBackground bool `json:"run_in_background,omitempty"`
}
