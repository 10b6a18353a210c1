package reliability

import (
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/toolpipe/toolpipe/devserver"
	"github.com/toolpipe/toolpipe/persistence"
)

// embedded is an embedded server the restart tests stop and start again on the same
// state directory and port, with a client that reconnects by itself, as starter's
// does.
type embedded struct {
	t     *testing.T
	ctx   context.Context
	state string
	log   *slog.Logger
	srv   *devserver.Server
	port  int
	c     client.Client
}

// startEmbedded starts the server and its client; both are stopped when the test ends.
func startEmbedded(t *testing.T, ctx context.Context, state string) *embedded {
	t.Helper()
	e := &embedded{t: t, ctx: ctx, state: state,
		log: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))}
	var err error
	if e.srv, err = devserver.Start(ctx, devserver.Config{StateDir: state, Logger: e.log, LogLevel: slog.LevelError}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.srv.Stop() }) // the server running at the end, after restarts
	_, portText, _ := net.SplitHostPort(e.srv.FrontendAddress())
	e.port, _ = strconv.Atoi(portText)
	d, err := persistence.NewPayloadDriver(filepath.Join(state, "payloads"))
	if err != nil {
		t.Fatal(err)
	}
	e.c, err = client.Dial(client.Options{HostPort: e.srv.FrontendAddress(), Namespace: e.srv.Namespace(),
		ExternalStorage: d.ExternalStorage(), Logger: sdklog.NewStructuredLogger(e.log)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.c.Close)
	return e
}

// restart stops the server and starts it again on the same directory and port, and
// returns how long it was down.
func (e *embedded) restart() time.Duration {
	e.t.Helper()
	begin := time.Now()
	if err := e.srv.Stop(); err != nil {
		e.t.Fatalf("stop: %v", err)
	}
	srv, err := devserver.Start(e.ctx, devserver.Config{StateDir: e.state, FrontendPort: e.port, Logger: e.log, LogLevel: slog.LevelError})
	if err != nil {
		e.t.Fatalf("restart: %v", err)
	}
	e.srv = srv
	return time.Since(begin)
}
