// Package tool defines the tools an agent can call: their names, input schemas,
// concurrency safety, interrupt behaviour and result-size thresholds, plus the wire
// types of a tool call (a tool_use block in, a tool_result out).
//
// Everything here is pure and deterministic because the Turn workflow calls it while
// it schedules: the same input must give the same decision on every replay. The side
// effects of each tool live in package activities.
package tool
