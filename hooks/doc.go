// Package hooks reads Claude Code's settings.json (hooks and permissions) and speaks
// the hook protocol: which hook commands match a tool call, the JSON a hook receives
// on stdin, how its exit code and stdout are read, and how the answers of several
// hooks combine (DESIGN §5).
//
// The package has two halves with different rules. Loading settings (load.go, file.go,
// policy.go) reads files and resolves paths, and runs in the starter before a turn
// starts. Everything else is pure and deterministic, because the Turn workflow calls
// it: it does no I/O, reads no clock and never lets map order reach a result, so a
// replayed turn makes the same decisions. Running a hook command is an activity
// (activities.RunHook); its recorded Run is what Parse reads.
//
// Where Claude Code's behaviour is undocumented this package says which reading it
// took, on the function concerned.
package hooks
