// Package worker wires toolpipe's workflows and activities into a Temporal worker,
// either against a cluster (TEMPORAL_ADDRESS, profiles) or the embedded dev server.
package worker
