// Package readonly decides whether a Bash command only reads: IsReadOnly and
// Classify (with a reason), ReadPaths (the paths a read-only command reads, for
// the permission check) and TooBig (the guard every mvdan.cc/sh caller in
// workflow code runs first).
//
// It parses the command with mvdan.cc/sh and accepts it only when every program
// it runs is on an allowlist with safe flags and nothing redirects to a file,
// changes directory or runs code only known when it runs. "Not read-only" is
// always the safe answer. The code is pure and deterministic (stdlib and the
// shell parser only, no I/O) because the Turn workflow calls it while it
// schedules: the same command gets the same verdict on every replay. DESIGN §6.
package readonly
