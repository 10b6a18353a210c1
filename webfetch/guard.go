package webfetch

import (
	"net"
	"net/netip"
	"syscall"
)

// reserved are ranges that are not the public internet but that netip has no
// predicate for.
var reserved = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT, shared address space
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and the broadcast address
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64: may embed any IPv4 address
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("fec0::/10"),       // deprecated site-local
	netip.MustParsePrefix("2002::/16"),       // 6to4: may embed any IPv4 address
	netip.MustParsePrefix("2001::/32"),       // Teredo: may embed any IPv4 address
	netip.MustParsePrefix("::/128"),          // unspecified (also IsUnspecified)
	netip.MustParsePrefix("::ffff:0:0:0/96"), // IPv4-translated
}

// Internal reports whether ip is an address WebFetch must not reach unless private
// addresses are allowed: loopback, private, link-local, unspecified, multicast or
// otherwise not a public unicast address.
func Internal(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsUnspecified() ||
		ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsInterfaceLocalMulticast() ||
		ip.IsMulticast() {
		return true
	}
	for _, p := range reserved {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// guard is a net.Dialer Control function: it runs after name resolution, on the
// address actually being connected to, so a name that resolves inside the network
// (or starts to, between two lookups) is refused all the same.
func guard(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &BlockedError{Address: address}
	}
	if Internal(ap.Addr()) {
		return &BlockedError{Address: ap.Addr().Unmap().String()}
	}
	return nil
}

// newDialer connects with the guard unless private addresses are allowed.
func newDialer(allowPrivate bool) *net.Dialer {
	d := &net.Dialer{Timeout: dialTimeout}
	if !allowPrivate {
		d.Control = guard
	}
	return d
}
