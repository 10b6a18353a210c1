package main

// fleet reports whether this starter talks to a fleet: workers on hosts that share
// no disk, reached through a cluster, with a blob store they share (blob-url). Its
// sessions are then placed on one host (workflows/fleet.go). A starter that runs
// its workflows in its own process (the embedded server) has one host, itself.
func (e *env) fleet() bool {
	return e.cfg.BlobURL != "" && !e.conn.Embedded
}
