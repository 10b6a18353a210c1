// Package devserver runs the embedded default Temporal server that toolpipe
// uses when the user has not pointed it at a Temporal cluster of their own.
//
// Durable tool calls need a Temporal frontend, but asking every user to
// install and babysit a separate server before their first agent run is a
// steep price. So toolpipe links the Temporal server into its own binary, the
// way `temporal server start-dev` does, and keeps its state in a SQLite file
// under a state directory: workflows that were open when the process exited
// resume when it starts again. The Temporal Web UI is served alongside it so
// sessions can be inspected in a browser.
//
// Everything binds to 127.0.0.1 only: the server has no authentication, so it
// must never be reachable from another machine.
//
// One state directory is owned by at most one process at a time. Start takes
// an exclusive lock and advertises its addresses in a small JSON file, so a
// second toolpipe process can find the live server with Running and talk to it
// over gRPC instead of opening the database itself, which SQLite cannot share
// safely between two Temporal servers.
package devserver
