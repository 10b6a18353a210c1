package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// WebFetch end to end: `starter run` against a web server on 127.0.0.1, with the
// worker's private-address switch on and off, and a domain rule from the project's
// .claude/settings.json.

// webServer serves /page and /away (a redirect to the same server named
// localhost), recording the Host of every request.
type webServer struct {
	*httptest.Server
	mu    sync.Mutex
	hosts []string
}

func newWebServer(t *testing.T) *webServer {
	s := &webServer{}
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>t</title></head><body><h2>Install</h2><p>Run <code>make</code>, then <a href="/next">continue</a>.</p></body></html>`)
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://"+strings.Replace(r.Host, "127.0.0.1", "localhost", 1)+"/page", http.StatusFound)
	})
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hosts = append(s.hosts, r.Host+r.URL.Path)
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *webServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.hosts...)
}

// runWebFetch runs a turn of WebFetch calls with no model on the worker.
func runWebFetch(t *testing.T, work string, flags []string, blocks ...string) userMsg {
	t.Helper()
	msg := filepath.Join(t.TempDir(), "msg.json")
	os.WriteFile(msg, []byte(`{"role":"assistant","content":[`+strings.Join(blocks, ",")+`]}`), 0o644)
	cmd := hermetic(t, starter(t, t.TempDir(), append(append([]string{"run", "--workdir", work}, flags...), msg)...))
	cmd.Env = append(cmd.Env, "ANTHROPIC_API_KEY=", "TOOLPIPE_WEBFETCH_ALLOW_PRIVATE=")
	out, _ := output(t, "run", cmd)
	m := decode(t, out)
	if len(m.Content) != len(blocks) {
		t.Fatalf("%d results for %d calls: %s", len(m.Content), len(blocks), out)
	}
	return m
}

func webFetch(id, url string) string {
	return toolUse(id, "WebFetch", map[string]any{"url": url, "prompt": "How do I install it?"})
}

// With private addresses allowed: the page comes back as markdown, a redirect to
// another host is reported instead of followed, and the project's deny rule for
// localhost refuses the call before any request is made.
func TestWebFetchEndToEnd(t *testing.T) {
	s := newWebServer(t)
	local := strings.Replace(s.URL, "127.0.0.1", "localhost", 1)
	work := t.TempDir()
	writeJSON(t, filepath.Join(work, ".claude", "settings.json"), map[string]any{"permissions": map[string]any{
		"allow": []string{"WebFetch(domain:127.0.0.1)"},
		"deny":  []string{"WebFetch(domain:localhost)"},
	}})
	m := runWebFetch(t, work, []string{"--trust", "--webfetch-allow-private"},
		webFetch("w1", s.URL+"/page"), webFetch("w2", local+"/page"), webFetch("w3", s.URL+"/away"))
	byID := map[string]int{}
	for i, c := range m.Content {
		byID[c.ToolUseID] = i
	}
	page := m.Content[byID["w1"]]
	if page.IsError || !strings.Contains(page.Content, "## Install") ||
		!strings.Contains(page.Content, "Run `make`, then [continue]("+s.URL+"/next).") ||
		!strings.Contains(page.Content, "the prompt was not applied") {
		t.Errorf("w1: %+v", page)
	}
	denied := m.Content[byID["w2"]]
	if !denied.IsError || denied.Content != "WebFetch denied access to domain:localhost." {
		t.Errorf("w2: %+v", denied)
	}
	redirect := m.Content[byID["w3"]]
	if redirect.IsError || !strings.Contains(redirect.Content, "REDIRECT TO ANOTHER HOST") || !strings.Contains(redirect.Content, `- url: "`+local+`/page"`) {
		t.Errorf("w3: %+v", redirect)
	}
	for _, r := range s.requests() {
		if strings.HasPrefix(r, "localhost") {
			t.Errorf("a request reached the server as localhost (%s): the deny rule or the redirect rule was bypassed", r)
		}
	}
}

// By default the worker refuses to fetch from loopback addresses, by IP or by a
// name that resolves to one; nothing reaches the server.
func TestWebFetchPrivateAddressRefusedEndToEnd(t *testing.T) {
	s := newWebServer(t)
	local := strings.Replace(s.URL, "127.0.0.1", "localhost", 1)
	m := runWebFetch(t, t.TempDir(), nil, webFetch("w1", s.URL+"/page"), webFetch("w2", local+"/page"))
	for _, r := range m.Content {
		if !r.IsError || !strings.Contains(r.Content, "refused") || !strings.Contains(r.Content, "webfetch-allow-private") {
			t.Errorf("%s: %+v", r.ToolUseID, r)
		}
	}
	if reqs := s.requests(); len(reqs) != 0 {
		t.Errorf("the server got %v", reqs)
	}
}

// A response larger than WebFetch reads is cut at 10 MB, without the rest being
// sent, and its result, over the tool's threshold, is persisted with a preview; a
// server that never finishes hits webfetch-timeout and the call reports it.
func TestWebFetchHugeAndSlowEndToEnd(t *testing.T) {
	release := make(chan struct{})
	var served atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		line := []byte(strings.Repeat("x", 99) + "\n")
		for i := 0; i < 300_000; i++ { // 30 MB unless the reader stops
			if _, err := w.Write(line); err != nil {
				return
			}
			served.Add(int64(len(line)))
		}
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(release) }) // runs before the server's Close
	m := runWebFetch(t, t.TempDir(), []string{"--webfetch-allow-private", "--webfetch-timeout", "2s"},
		webFetch("h1", s.URL+"/huge"), webFetch("s1", s.URL+"/slow"))
	byID := map[string]int{}
	for i, c := range m.Content {
		byID[c.ToolUseID] = i
	}
	huge := m.Content[byID["h1"]]
	if huge.IsError || !strings.Contains(huge.Content, "<persisted-output>") || !strings.Contains(huge.Content, "Only its first 10485760 bytes were read") {
		t.Errorf("h1: %.300s", huge.Content)
	}
	if n := served.Load(); n >= 30_000_000 {
		t.Errorf("the server sent all %d bytes: WebFetch read past its limit", n)
	}
	if slow := m.Content[byID["s1"]]; !slow.IsError || !strings.Contains(slow.Content, "time limit") {
		t.Errorf("s1: %+v", slow)
	}
}
