package devserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestUI(t *testing.T) {
	const namespace = "toolpipe-ui-test"
	s := startServer(t, Config{StateDir: t.TempDir(), Namespace: namespace, UI: true})
	if !strings.HasPrefix(s.UIAddress(), "http://127.0.0.1:") {
		t.Fatalf("UIAddress = %q, want http://127.0.0.1:PORT", s.UIAddress())
	}
	if info, ok := Running(s.cfg.StateDir); !ok || info.UIAddress != s.UIAddress() {
		t.Errorf("Running = %+v, %v; want UI address %s advertised", info, ok, s.UIAddress())
	}
	hc := &http.Client{Timeout: 10 * time.Second}

	ctype, body := get(t, hc, s.UIAddress()+"/")
	if !strings.HasPrefix(ctype, "text/html") || !strings.Contains(strings.ToLower(body), "<html") {
		t.Errorf("GET / returned %q:\n%.300s", ctype, body)
	}

	// The API is the UI's gRPC-gateway proxy to the frontend, so this also
	// proves the UI reaches the server and sees the namespace.
	ctype, body = get(t, hc, s.UIAddress()+"/api/v1/namespaces")
	if !strings.HasPrefix(ctype, "application/json") {
		t.Errorf("GET /api/v1/namespaces content type %q", ctype)
	}
	var list struct {
		Namespaces []struct {
			NamespaceInfo struct {
				Name string `json:"name"`
			} `json:"namespaceInfo"`
		} `json:"namespaces"`
	}
	if err := json.Unmarshal([]byte(body), &list); err != nil {
		t.Fatalf("GET /api/v1/namespaces: %v\n%.300s", err, body)
	}
	var names []string
	for _, ns := range list.Namespaces {
		names = append(names, ns.NamespaceInfo.Name)
	}
	if !strings.Contains(strings.Join(names, ","), namespace) {
		t.Errorf("namespaces listed by the UI API = %v, want %s among them", names, namespace)
	}

	if err := s.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if _, err := hc.Get(s.UIAddress() + "/"); err == nil {
		t.Error("UI still answers after Stop")
	}
}

func get(t *testing.T, hc *http.Client, url string) (contentType, body string) {
	t.Helper()
	resp, err := hc.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s\n%.300s", url, resp.Status, b)
	}
	return resp.Header.Get("Content-Type"), string(b)
}

// Two servers on two state directories start at the same moment with the same UI
// port: one serves the UI, the other gets ErrUIPort, and the process lives on.
// ui-server's own Start exited the process (FATAL on stdout) when it lost the race
// for the port, which every earlier check could not prevent.
func TestTwoServersStartingTogetherShareNoUIPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	servers, errs := make([]*Server, 2), make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			servers[i], errs[i] = Start(ctx, Config{StateDir: t.TempDir(), UI: true, UIPort: port, Logger: testLogger(t)})
		}()
	}
	wg.Wait()
	served := 0
	for i := range 2 {
		switch {
		case errs[i] == nil:
			served++
			if want := "http://" + hostPort(port); servers[i].UIAddress() != want {
				t.Errorf("UI at %q, want %s", servers[i].UIAddress(), want)
			}
			if err := servers[i].Stop(); err != nil {
				t.Error(err)
			}
		case !errors.Is(errs[i], ErrUIPort):
			t.Errorf("the other server: %v, want ErrUIPort", errs[i])
		}
	}
	if served != 1 {
		t.Fatalf("%d servers started (errors %v), want 1", served, errs)
	}
}
