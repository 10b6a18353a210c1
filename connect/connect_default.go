package connect

import (
	"fmt"
	"net"
)

// DefaultAddressNote says, for a connection made to the SDK's default address
// because no cluster was configured (DefaultAddress), what listens there as far as
// the state directory tells: its own embedded server, or not (another state
// directory's `starter dev`, a local Temporal). "" for any other connection.
func (c *Conn) DefaultAddressNote(stateDir string) string {
	if !c.DefaultAddress {
		return ""
	}
	what := "which is not the embedded server of the state directory " + stateDir + " (it may be another state directory's `starter dev`, or a Temporal server of its own)"
	if addr, pid, ok := RunningServer(stateDir); ok && samePort(addr, c.Address) {
		what = fmt.Sprintf("the embedded server of the state directory %s (process %d)", stateDir, pid)
	}
	return fmt.Sprintf("no TEMPORAL_ADDRESS or temporal.toml profile is set: connected to the SDK's default address %s, %s; set TEMPORAL_ADDRESS to pick the cluster, or run with --dev",
		c.Address, what)
}

// samePort reports whether two loopback addresses name the same port
// ("localhost:7233" and "127.0.0.1:7233").
func samePort(a, b string) bool {
	_, pa, errA := net.SplitHostPort(a)
	_, pb, errB := net.SplitHostPort(b)
	return errA == nil && errB == nil && pa == pb
}
