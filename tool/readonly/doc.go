// Package readonly decides whether a Bash command only reads: IsReadOnly and
// Classify (with a reason), Reads and ReadPaths (what a command reads, for the
// permission check: paths, patterns, recursive reads, the files its options and
// scripts name), and Parse, Mismatch and TooBig (the guards every mvdan.cc/sh
// caller in workflow code goes through).
//
// It parses the command with mvdan.cc/sh and accepts it only when every program
// it runs is on an allowlist with safe flags and nothing redirects to a file,
// changes directory, assigns a variable that steers programs (PATH, GIT_*,
// BASH_CMDS, by NAME=value, read, for, ${NAME:=...} or export) or runs code
// only known when it runs. The parser and bash must read the command alike:
// bytes they read differently (\r, control characters, invalid UTF-8) are
// refused, and a word that may expand to several words or to an option (a
// glob, a brace list, an unquoted $x) never stands where a program reads
// options or code. "Not read-only" is always the safe answer. The code is pure
// and deterministic (stdlib and the shell parser only, no I/O) because the
// Turn workflow calls it while it schedules: the same command gets the same
// verdict on every replay. DESIGN §6.
package readonly
