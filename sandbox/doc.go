// Package sandbox runs Bash commands confined, on Linux inside bubblewrap (or
// Landlock where bubblewrap cannot start). Two sandboxes: the write sandbox of
// Claude Code's "sandbox" settings (writes limited to the working directory and
// filesystem.allowWrite), and the read-only sandbox of commands that run without
// approval because they were classified read-only (nothing writable). Both hide
// filesystem.denyRead, the worker's state directory and the user's credentials,
// keep control files read-only whether they exist or not, have no network and
// no Unix sockets, and their own PID namespace, so every process the command
// starts (setsid or not) is confined and dies with it. Settings holds the
// configuration and the pure decisions the workflow makes from it (is this
// command sandboxed? may it run without approval?); Launcher.Wrap turns a
// command into its confined form on the worker.
package sandbox
