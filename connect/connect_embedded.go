//go:build !toolpipe_noserver

package connect

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/toolpipe/toolpipe/devserver"
)

// serverStartWait bounds how long Connect waits for a server another client of the
// state directory is starting (seconds usually; a loaded machine takes longer).
const serverStartWait = 2 * time.Minute

// connectEmbedded uses the embedded server on the state directory: the one another
// process already runs there, or a new one in this process.
func connectEmbedded(ctx context.Context, o Options) (*Conn, error) {
	// The embedded server's records, and the SDK's (poll errors while the server
	// restarts), go to <state>/server.log, never to the terminal.
	level := slog.LevelWarn
	if o.Logger != nil && o.Logger.Enabled(ctx, slog.LevelDebug) {
		level = slog.LevelDebug
	} else if o.Logger != nil && o.Logger.Enabled(ctx, slog.LevelInfo) {
		level = slog.LevelInfo
	}
	o.Logger = serverLog(o.StateDir, level)
	cfg := devserver.Config{StateDir: o.StateDir, FrontendPort: o.Port, UI: o.UI, UIPort: o.UIPort, Logger: o.Logger, LogLevel: level}
	var srv *devserver.Server
	var err error
	noUI := ""
	if !o.UI {
		noUI = "off"
	}
	waitUntil := time.Now().Add(serverStartWait)
	for {
		if info, ok := devserver.Running(o.StateDir); ok {
			c, err := dial(ctx, info.FrontendAddress, info.Namespace, o)
			if err != nil {
				return nil, err
			}
			conn := &Conn{Client: c, Embedded: true, Address: info.FrontendAddress, Namespace: info.Namespace, ServerPID: info.PID,
				keeper: newKeeper(info.FrontendAddress, nil, cfg)}
			if info.UIAddress == "" {
				conn.NoUI = fmt.Sprintf("the embedded server of process %d, which this command uses, serves none", info.PID)
			}
			return conn, nil
		}
		srv, err = devserver.Start(ctx, cfg)
		if err != nil && o.UI && !errors.Is(err, devserver.ErrStateDirInUse) {
			// The UI's port may be taken (another toolpipe, another Temporal): the turn
			// matters more than the UI, so run without it rather than fail.
			o.Logger.Warn("starting the embedded server without the Web UI", "error", err)
			noUI = strings.TrimPrefix(err.Error(), "devserver: ")
			var taken *devserver.UIPortError
			if errors.As(err, &taken) {
				noUI = fmt.Sprintf("port %d on 127.0.0.1 is taken (%v); --ui-port chooses another", taken.Port, taken.Err)
			}
			cfg.UI = false
			srv, err = devserver.Start(ctx, cfg)
		}
		// In use but not answering: another client is starting the server (the
		// first one, or a keeper taking it over); wait for it to answer.
		if !errors.Is(err, devserver.ErrStateDirInUse) || time.Now().After(waitUntil) {
			break
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("connect: embedded server: %w", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
	if err != nil {
		return nil, fmt.Errorf("connect: embedded server: %w", err)
	}
	c, err := dial(ctx, srv.FrontendAddress(), srv.Namespace(), o)
	if err != nil {
		srv.Stop()
		return nil, err
	}
	return &Conn{Client: c, Server: srv, Embedded: true, Address: srv.FrontendAddress(), Namespace: srv.Namespace(), ServerPID: os.Getpid(),
		NoUI: noUI, keeper: newKeeper(srv.FrontendAddress(), srv, cfg)}, nil
}

// runningUIAddress is the UI of the embedded server another process runs on
// stateDir, or "" when none runs there.
func runningUIAddress(stateDir string) string {
	if info, ok := devserver.Running(stateDir); ok {
		return info.UIAddress
	}
	return ""
}

// RunningServer is the embedded server a process runs on stateDir: its frontend
// address and pid; ok is false when none runs there.
func RunningServer(stateDir string) (frontend string, pid int, ok bool) {
	info, ok := devserver.Running(stateDir)
	return info.FrontendAddress, info.PID, ok
}
