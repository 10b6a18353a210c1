// Package hooks speaks Claude Code's hook protocol: which hook commands match a
// tool call or a session event, the JSON a hook receives on stdin, how its exit
// code and stdout are read, and how the answers of several hooks combine
// (DESIGN §5).
//
// The package is pure and deterministic, because the Turn and Session workflows
// call it: it does no I/O (no os, no io/fs), reads no clock and never lets map
// order reach a result, so a replayed turn makes the same decisions. Reading
// settings.json into a Config is package settings' job; running a hook command is
// an activity (activities.RunHook), whose recorded Run is what Parse reads.
//
// Where Claude Code's behaviour is undocumented this package says which reading it
// took, on the function concerned.
package hooks
