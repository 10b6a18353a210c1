// Package workflows holds the Temporal workflows of toolpipe. Workflows only
// orchestrate: every side effect (a tool call, a hook, a file) is an activity, and the
// scheduling decisions come from package scheduler, so the code here is the glue that
// makes those decisions durable.
package workflows
