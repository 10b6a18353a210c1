// Package settings reads Claude Code's settings files (the user's settings.json,
// the project's .claude/settings.json and .claude/settings.local.json, or the one
// --settings names), merges them with Claude Code's precedence, and turns them
// into what the pure packages take: a hooks.Config and a permissions.Policy whose
// directories are absolute with their symbolic links resolved (Resolve).
//
// It is the I/O half that hooks and permissions leave out: it reads files, the
// environment and the home directory, and runs in the starter before a turn
// starts (and in activities, for Resolve), never in workflow code. A malformed
// file is a *FileError naming the file, line and column. DESIGN §5.
package settings
