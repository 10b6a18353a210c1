package webfetch

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"
)

func TestInternalAddresses(t *testing.T) {
	for _, a := range []string{"127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "192.168.1.1",
		"169.254.169.254", "0.0.0.0", "100.64.0.1", "224.0.0.1", "255.255.255.255",
		"::1", "::", "fe80::1", "fc00::1", "fd12::3", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::a00:1"} {
		if !Internal(netip.MustParseAddr(a)) {
			t.Errorf("%s is not refused", a)
		}
	}
	for _, a := range []string{"8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8"} {
		if Internal(netip.MustParseAddr(a)) {
			t.Errorf("%s is refused", a)
		}
	}
}

// Without allow-private, internal addresses are refused at dial time, whether
// given as IP literals or as a name that resolves to one, and nothing reaches the
// server.
func TestPrivateAddressesRefused(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "secret") })
	s := newSite(t, mux)
	port := strconv.Itoa(s.Listener.Addr().(*net.TCPAddr).Port)
	f := New()
	for _, u := range []string{
		s.URL + "/", // 127.0.0.1
		"http://localhost:" + port + "/",
		"http://[::1]:" + port + "/",
		"http://10.0.0.1/",
		"http://169.254.169.254/latest/meta-data/",
		"http://0.0.0.0:" + port + "/",
	} {
		_, err := f.Fetch(ctx(t), u)
		var be *BlockedError
		if !errors.As(err, &be) {
			t.Errorf("%s: %v, want a BlockedError", u, err)
			continue
		}
		if be.Host == "" || !strings.Contains(err.Error(), "webfetch-allow-private") {
			t.Errorf("%s: message %q", u, err)
		}
	}
	if n := s.hits.Load(); n != 0 {
		t.Errorf("the server got %d requests", n)
	}
	// The same server, allowed: the refusals above were the guard's.
	if res, err := local().Fetch(ctx(t), s.URL+"/"); err != nil || res.Content != "secret" {
		t.Fatalf("allowed: %q %v", res.Content, err)
	}
}
