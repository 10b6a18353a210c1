package devserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	uiserver "github.com/temporalio/ui-server/v2/server"
	uiconfig "github.com/temporalio/ui-server/v2/server/config"
	uioptions "github.com/temporalio/ui-server/v2/server/server_options"
)

// webUI is a running Temporal Web UI server.
type webUI struct {
	srv  *uiserver.Server
	done chan struct{}
}

// startUI serves the Web UI, with the assets embedded in ui-server, on
// host:port, talking to the frontend over gRPC, and returns once it answers
// HTTP requests.
func startUI(ctx context.Context, port int, frontendAddr, namespace string) (_ *webUI, err error) {
	cfg := &uiconfig.Config{
		Host:                host,
		Port:                port,
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
	// NewServer panics rather than returning errors.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("devserver: create UI server: %v", r)
		}
	}()
	u := &webUI{
		srv:  uiserver.NewServer(uioptions.WithConfigProvider(cfg)),
		done: make(chan struct{}),
	}
	go func() {
		defer close(u.done)
		// Start blocks until Stop and returns nil then. A failed bind never
		// comes back here: ui-server exits the process instead, which is why
		// Start checks that the port is free first.
		_ = u.srv.Start()
	}()
	if err := u.awaitReady(ctx, hostPort(port)); err != nil {
		u.stop()
		return nil, err
	}
	return u, nil
}

// awaitReady polls the UI's health endpoint, because Start gives no signal
// when it is listening.
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
	u.srv.Stop()
	<-u.done
}
