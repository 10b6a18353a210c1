package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// session returns the live session of a server, connecting when there is none. The
// connection is made once for all concurrent callers, detached from ctx: a caller
// that gives up (an interrupted tool) does not break it for the others.
func (m *Manager) session(ctx context.Context, workdir, name string, s Server) (*conn, error) {
	key := connKey{workdir, name}
	spec, _ := json.Marshal(s) // maps marshal sorted: equal configs compare equal
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	c := m.conns[key]
	if c != nil && c.spec != string(spec) {
		// .mcp.json changed this server: the old session goes, a new one starts.
		delete(m.conns, key)
		go closeConn(c)
		c = nil
	}
	if c == nil {
		c = &conn{spec: string(spec), ready: make(chan struct{}), closed: make(chan struct{}), stderr: &tailBuffer{}}
		m.conns[key] = c
		go m.connect(key, c, s)
	}
	m.mu.Unlock()
	select {
	case <-c.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if c.err != nil {
		m.drop(key, c, c.err)
		return nil, m.unavailable(name, c, c.err)
	}
	return c, nil
}

// connect starts the server (stdio) or reaches it (http, sse) and initialises the
// session; a watcher drops the session when it ends (the server exited).
func (m *Manager) connect(key connKey, c *conn, s Server) {
	defer close(c.ready)
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	t, err := transport(key.workdir, s, c.stderr, m.env.Environ(os.Environ()))
	if err == nil {
		c.session, err = m.client.Connect(ctx, t, nil)
	}
	if err != nil {
		c.err = fmt.Errorf("cannot connect: %w", err)
		return
	}
	m.log.Info("mcp: connected", "server", key.server, "workdir", key.workdir, "type", s.Type)
	go func() {
		err := c.session.Wait()
		m.drop(key, c, fmt.Errorf("the session ended: %v", err))
	}()
}

// transport builds the client transport of a server entry.
// environ is the worker's environment without its secrets (toolenv).
func transport(workdir string, s Server, stderr *tailBuffer, environ []string) (mcp.Transport, error) {
	if s.Dial != nil {
		return s.Dial(context.Background())
	}
	switch s.Type {
	case TypeHTTP, TypeSSE:
		hc := &http.Client{Transport: headerTransport{headers: s.Headers, base: http.DefaultTransport}}
		if s.Type == TypeSSE {
			return &mcp.SSEClientTransport{Endpoint: s.URL, HTTPClient: hc}, nil
		}
		// Tool calls need no server-initiated messages, and a server that went away
		// must fail the call soon rather than after many reconnect attempts.
		return &mcp.StreamableClientTransport{Endpoint: s.URL, HTTPClient: hc, DisableStandaloneSSE: true, MaxRetries: 1}, nil
	case TypeStdio:
		cmd := exec.Command(s.Command, s.Args...) // not CommandContext: it outlives the call
		cmd.Dir = workdir
		cmd.Env = environ
		for _, k := range sortedKeys(s.Env) {
			cmd.Env = append(cmd.Env, k+"="+s.Env[k])
		}
		cmd.Stderr = stderr
		// Its own process group: a Ctrl-C at the terminal reaches the worker, which
		// then closes its servers in order, rather than killing them under it.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // its own session and group, as a tool
		return &mcp.CommandTransport{Command: cmd, TerminateDuration: terminateGrace}, nil
	}
	return nil, fmt.Errorf("unknown server type %q", s.Type)
}

// drop forgets c (if it is still the session of key) and closes it, so the next
// use connects again.
func (m *Manager) drop(key connKey, c *conn, why error) {
	m.mu.Lock()
	current := m.conns[key] == c
	if current {
		delete(m.conns, key)
	}
	m.mu.Unlock()
	if current {
		m.log.Warn("mcp: session dropped; the next call reconnects", "server", key.server, "workdir", key.workdir, "reason", why)
		go closeConn(c)
	}
}

// closeConn closes a session once its connect attempt ended: a stdio server gets
// EOF on stdin, then SIGTERM, then SIGKILL, and is reaped.
func closeConn(c *conn) {
	<-c.ready
	if c.session != nil {
		_ = c.session.Close()
	}
	c.closeOnce.Do(func() { close(c.closed) })
}

// Close closes every session and stops every stdio server; later calls fail with
// ErrClosed. The worker calls it at shutdown.
func (m *Manager) Close() error {
	m.mu.Lock()
	m.closed = true
	conns := make([]*conn, 0, len(m.conns))
	for _, c := range m.conns {
		conns = append(conns, c)
	}
	m.conns = map[connKey]*conn{}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() { closeConn(c) })
	}
	wg.Wait()
	return nil
}

// headerTransport adds the configured headers to every request.
type headerTransport struct {
	headers map[string]string
	base    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	return h.base.RoundTrip(r)
}

// tailBufferSize is how much of a stdio server's stderr is kept, for the error
// that reports it failed.
const tailBufferSize = 1024

// tailBuffer keeps the end of what is written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - tailBufferSize; over > 0 {
		t.buf = slices.Clone(t.buf[over:])
	}
	return len(p), nil
}

// String is the kept tail on one line.
func (t *tailBuffer) String() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(strings.Fields(string(t.buf)), " ")
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
