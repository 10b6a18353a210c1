// Package activities holds the side effects of toolpipe: one Temporal activity per
// tool (one file each), methods on Activities so they share their dependencies. They
// know nothing of scheduling; a tool failure the model should see is a result with
// IsError, while an error return means the infrastructure failed.
package activities
