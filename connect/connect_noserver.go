//go:build toolpipe_noserver

package connect

import "context"

// This build (-tags toolpipe_noserver) leaves the embedded Temporal server and its
// Web UI out: the release worker only ever connects to a cluster, and without them
// it is about a third of the size (BENCHMARKS.md, "Binary size").

func connectEmbedded(context.Context, Options) (*Conn, error) { return nil, ErrNoEmbeddedServer }

// keeper keeps the embedded server up (keeper.go); there is none in this build.
type keeper struct{}

func (*keeper) close() {}

// runningUIAddress is "": a build without the embedded server never has one.
func runningUIAddress(string) string { return "" }

// RunningServer finds none: a build without the embedded server cannot tell.
func RunningServer(string) (string, int, bool) { return "", 0, false }
