// Package scheduler is the streaming tool executor's state machine (DESIGN §3): the
// tracked tools, the scheduling rule, the queue scan, in-order yielding, the Bash
// sibling-error cascade and interrupts. It decides; it does not run anything.
//
// It is pure and deterministic so that the Turn workflow (durable) and the in-process
// executor of the benchmarks drive exactly the same rules: the workflow starts an
// activity for each tool Scan returns and reports each outcome back with Complete.
package scheduler
