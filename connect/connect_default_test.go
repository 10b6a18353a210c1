package connect

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/devserver"
)

// A worker connected to the SDK's default address (no TEMPORAL_ADDRESS, no --dev)
// says so, and whether what answers there is its state directory's embedded server
// or something else (another state directory's `starter dev`).
func TestDefaultAddressNoteSaysWhoseServer(t *testing.T) {
	state, other := t.TempDir(), t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv, err := devserver.Start(ctx, devserver.Config{StateDir: state, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	_, port, _ := net.SplitHostPort(srv.FrontendAddress())
	c := &Conn{Address: "localhost:" + port, DefaultAddress: true}
	if note := c.DefaultAddressNote(state); !strings.Contains(note, "no TEMPORAL_ADDRESS") ||
		!strings.Contains(note, fmt.Sprintf("the embedded server of the state directory %s (process %d)", state, os.Getpid())) {
		t.Errorf("its own state directory's server: %q", note)
	}
	if note := c.DefaultAddressNote(other); !strings.Contains(note, "which is not the embedded server of the state directory "+other) {
		t.Errorf("another state directory's server: %q", note)
	}
	if note := (&Conn{Address: "temporal.example.com:7233"}).DefaultAddressNote(state); note != "" {
		t.Errorf("a configured cluster: %q, want no note", note)
	}
}
