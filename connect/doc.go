// Package connect reaches Temporal for a toolpipe process: the cluster that
// TEMPORAL_ADDRESS or a temporal.toml profile names (through the SDK's envconfig),
// or the embedded server on a state directory (package devserver: the one another
// process already runs there, or a new one, kept up while any client needs it).
// Either way the client keeps payloads too large for history in the state
// directory's payload store.
//
// It is apart from the Go API (package toolpipe) because the embedded server is the
// Temporal server: a program that imports toolpipe to talk to a cluster does not
// link it. Build with -tags toolpipe_noserver to leave it out of this package too
// (Dial then refuses Embedded with ErrNoEmbeddedServer).
package connect
