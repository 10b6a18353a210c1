// Package reliability holds toolpipe's reliability suite: tests that run real turns
// on a real Temporal server under faults (a worker killed with SIGKILL, the embedded
// server restarted, tools that hang, a state directory that cannot be written),
// hostile input and load, and check that nothing is lost or run twice.
// RELIABILITY.md at the repository root maps each fault and input class to its test.
//
// The fast part runs with `go test ./test/reliability/`; TOOLPIPE_RELIABILITY_FULL=1
// runs the heavy variants (50 turns with a dozen kills, 100 concurrent turns).
package reliability
