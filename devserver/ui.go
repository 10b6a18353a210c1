package devserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/temporalio/ui-server/v2/server/api"
	"github.com/temporalio/ui-server/v2/server/auth"
	uiconfig "github.com/temporalio/ui-server/v2/server/config"
	"github.com/temporalio/ui-server/v2/server/cors"
	"github.com/temporalio/ui-server/v2/server/csrf"
	"github.com/temporalio/ui-server/v2/server/headers"
	"github.com/temporalio/ui-server/v2/server/route"
	"github.com/temporalio/ui-server/v2/ui"
)

// ErrUIPort is matched (errors.Is) by Start's error when the Web UI's port cannot
// be bound (another toolpipe, another Temporal dev server): a caller that can do
// without the UI starts again with UI off. The error is a *UIPortError.
var ErrUIPort = errors.New("devserver: the Web UI's port is not available")

// UIPortError is the Web UI's port that could not be bound, and why.
type UIPortError struct {
	Port int
	Err  error
}

func (e *UIPortError) Error() string {
	return fmt.Sprintf("devserver: the Web UI's port %d on %s is not available: %v", e.Port, host, e.Err)
}

// Unwrap is the bind's error.
func (e *UIPortError) Unwrap() error { return e.Err }

// Is matches ErrUIPort.
func (e *UIPortError) Is(target error) bool { return target == ErrUIPort }

// webUI is a running Temporal Web UI server.
//
// ui-server's own Server binds its port in Start and, when the bind fails, logs
// FATAL through echo's logger, which prints on stdout and exits the process: two
// starters racing for the port killed one of them (issue 32). So the handler is
// built here from ui-server's route packages, as its NewServer builds it, and served
// on a listener bound before the Temporal server starts: a taken port is an error
// (ErrUIPort), never an exit, and every log line goes to the server's Logger.
type webUI struct {
	srv  *http.Server
	done chan struct{}
}

// listenUI binds the Web UI's port on host; 0 picks a free one.
func listenUI(port int) (net.Listener, error) {
	ln, err := net.Listen("tcp", hostPort(port))
	if err != nil {
		return nil, &UIPortError{Port: port, Err: err}
	}
	return ln, nil
}

// startUI serves the Web UI on ln, with the assets embedded in ui-server, talking
// to the frontend over gRPC, and returns once it answers HTTP requests.
func startUI(ctx context.Context, ln net.Listener, frontendAddr, namespace string, log *slog.Logger) (*webUI, error) {
	cfg := &uiconfig.Config{
		Host:                host,
		Port:                ln.Addr().(*net.TCPAddr).Port,
		TemporalGRPCAddress: frontendAddr,
		EnableUI:            true,
		DefaultNamespace:    namespace,
		// Served over plain HTTP on loopback: a Secure CSRF cookie would
		// never be sent back and every write action would fail.
		CORS: uiconfig.CORS{CookieInsecure: true},
		// A local tool should not phone home for release news.
		DisableNewsFetch: true,
		HideLogs:         true,
	}
	e, err := uiHandler(cfg, log)
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	u := &webUI{
		srv:  &http.Server{Handler: e, ReadHeaderTimeout: 30 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)},
		done: make(chan struct{}),
	}
	go func() {
		defer close(u.done)
		if err := u.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			log.Warn("devserver: the Web UI stopped serving", "error", err)
		}
	}()
	if err := u.awaitReady(ctx, ln.Addr().String()); err != nil {
		u.stop()
		return nil, err
	}
	return u, nil
}

// uiHandler is ui-server's (v2) NewServer without its Start: the same middleware
// and routes, with echo's logger writing to log instead of stdout.
func uiHandler(cfg *uiconfig.Config, log *slog.Logger) (*echo.Echo, error) {
	cfgProvider, err := uiconfig.NewConfigProviderWithRefresh(cfg)
	if err != nil {
		return nil, fmt.Errorf("devserver: UI configuration: %w", err)
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Logger.SetOutput(logWriter{log})
	e.Use(middleware.Recover())
	e.Use(middleware.Gzip())
	e.Use(cors.CORSMiddleware(cors.CORSConfig{
		AllowHeaders: []string{
			echo.HeaderOrigin, echo.HeaderContentType, echo.HeaderAccept,
			echo.HeaderXCSRFToken, echo.HeaderAuthorization, auth.AuthorizationExtrasHeader,
			"Caller-Type",
		},
		AllowCredentials: true,
		ConfigProvider:   cfgProvider,
	}))
	e.Use(middleware.Secure())
	secure := !cfg.CORS.CookieInsecure
	e.Use(csrf.EnsureTokenCookie(secure))
	e.Use(middleware.CSRFWithConfig(csrf.MiddlewareConfig(cfgProvider, secure)))
	e.Pre(route.PublicPath(cfg.PublicPath))
	route.SetHealthRoute(e)
	forward := []api.Middleware{headers.WithForwardHeaders([]string{auth.AuthorizationExtrasHeader, "Caller-Type"})}
	if err := route.SetAPIRoutes(e, cfgProvider, forward); err != nil {
		return nil, fmt.Errorf("devserver: UI API routes: %w", err)
	}
	route.SetAuthRoutes(e, cfgProvider)
	assets, err := ui.Assets()
	if err == nil {
		assets, err = fs.Sub(assets, "local")
	}
	if err != nil {
		return nil, fmt.Errorf("devserver: UI assets: %w", err)
	}
	route.SetUIRoutes(e, cfg.PublicPath, assets, cfgProvider)
	route.SetRenderRoute(e, "/")
	return e, nil
}

// logWriter passes echo's log lines (a recovered panic, say) to the server's logger.
type logWriter struct{ log *slog.Logger }

func (w logWriter) Write(p []byte) (int, error) {
	w.log.Warn("devserver: web UI: " + string(bytes.TrimSpace(p)))
	return len(p), nil
}

// awaitReady polls the UI's health endpoint: Serve gives no signal when it serves.
func (u *webUI) awaitReady(ctx context.Context, addr string) error {
	client := &http.Client{Timeout: time.Second}
	url := "http://" + addr + "/healthz"
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if err := probe(ctx, client, url); err == nil {
			return nil
		} else if ctx.Err() != nil {
			return fmt.Errorf("devserver: wait for UI at %s: %w", addr, errors.Join(ctx.Err(), err))
		}
		select {
		case <-ctx.Done():
		case <-u.done:
			return fmt.Errorf("devserver: UI server at %s stopped while starting", addr)
		case <-tick.C:
		}
	}
}

func probe(ctx context.Context, client *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %s", resp.Status)
	}
	return nil
}

// stop closes the UI's listener and connections and waits for it to go. The
// gRPC connection ui-server opens to the frontend has no close hook and idles
// until the process exits.
func (u *webUI) stop() {
	_ = u.srv.Close()
	<-u.done
}
