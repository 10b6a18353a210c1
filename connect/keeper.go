//go:build !toolpipe_noserver

package connect

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/toolpipe/toolpipe/devserver"
)

// The embedded server lives in the process that started it, and every other
// client of the state directory talks to it. When that process exits (its turn is
// done, Ctrl-C), the server would go with it and strand the others. So every
// embedded client keeps the server: a keeper waits on the state directory's lock,
// and when its holder is gone, one client (the lock decides which) starts the
// server again from the same SQLite file on the same port. The other clients'
// connections and workers reconnect by themselves; their running tools outlive the
// blip (heartbeat.go). The server thus stays up as long as any client needs it, and
// no process outlives its own command.
type keeper struct {
	mu     sync.Mutex
	closed bool
	server *devserver.Server
	cfg    devserver.Config
}

// newKeeper starts keeping the server at addr; srv is the one this process
// started, nil when it uses another process's.
func newKeeper(addr string, srv *devserver.Server, cfg devserver.Config) *keeper {
	_, portText, _ := net.SplitHostPort(addr)
	cfg.FrontendPort, _ = strconv.Atoi(portText)
	k := &keeper{server: srv, cfg: cfg}
	go k.run()
	return k
}

func (k *keeper) run() {
	for {
		// Blocks while any server holds the lock, this process's own included.
		if err := devserver.WaitFree(k.cfg.StateDir); err != nil {
			k.cfg.Logger.Warn("server keeper: cannot watch the state directory's lock", "error", err)
			return
		}
		k.mu.Lock()
		if k.closed {
			k.mu.Unlock()
			return
		}
		srv, err := devserver.Start(context.Background(), k.cfg)
		if err != nil && k.cfg.UI && !errors.Is(err, devserver.ErrStateDirInUse) {
			cfg := k.cfg
			cfg.UI = false
			srv, err = devserver.Start(context.Background(), cfg)
		}
		switch {
		case err == nil:
			if k.server != nil {
				_ = k.server.Stop()
			}
			k.server = srv
			k.cfg.Logger.Info("server keeper: took over the embedded server", "address", srv.FrontendAddress())
		case errors.Is(err, devserver.ErrStateDirInUse):
			// Another client won: its server holds the lock, the next wait blocks.
		default:
			k.cfg.Logger.Warn("server keeper: cannot start the embedded server", "error", err)
			k.mu.Unlock()
			return
		}
		k.mu.Unlock()
	}
}

// close stops keeping and stops the server this process runs, if any; another
// client's keeper takes over.
func (k *keeper) close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.closed = true
	if k.server != nil {
		_ = k.server.Stop()
		k.server = nil
	}
}

// serverLog opens <state>/server.log for the embedded server's and the SDK's
// records: nothing they log reaches the terminal, where it would break the progress
// display. It falls back to discarding them.
func serverLog(stateDir string, level slog.Leveler) *slog.Logger {
	if err := os.MkdirAll(stateDir, 0o700); err == nil {
		if f, err := os.OpenFile(filepath.Join(stateDir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
			return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level}))
		}
	}
	return slog.New(slog.DiscardHandler)
}
