// Package sandbox runs Bash commands confined, configured by Claude Code's
// "sandbox" settings: on Linux inside bubblewrap, with writes limited to the
// working directory and filesystem.allowWrite, the rest of the filesystem
// read-only, filesystem.denyRead hidden, no network, and its own PID namespace,
// so every process the command starts (setsid or not) is confined and dies with
// it. Settings holds the configuration and the pure decisions the workflow makes
// from it (is this command sandboxed? may it run without approval?); Wrap turns a
// command into its sandboxed form on the worker.
package sandbox
