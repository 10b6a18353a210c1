// Package worker is what toolpipe's workflows and activities need of the Temporal
// worker that runs them: the worker options (heartbeats that outlive server
// blips), the registration of the workflows and activities under their names, the
// lost-worker liveness records and the sweep that declares a dead worker's tools
// lost, the per-process task queues and their locks, secrets kept out of the
// process environment, logging and telemetry. The Go API's plugin
// (toolpipe.NewPlugin) puts it on a worker; package connect reaches the server.
package worker
