package fakeanthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/wire"
)

// Server is a running fake Messages API.
type Server struct {
	srv *http.Server
	url string

	apiKey   string
	window   int
	minCache int

	mu        sync.Mutex
	cache     map[[32]byte]bool // prefixes written to the prompt cache
	responses []Response
	used      []bool
	requests  []Request
	changed   chan struct{}
}

// Request is one request the server received.
type Request struct {
	// APIKey is the key the client sent (x-api-key, or an Authorization bearer).
	APIKey string
	// Body is the raw request body.
	Body []byte
	// Model, MaxTokens, Stream and System are the request's parameters.
	Model     string
	MaxTokens int
	Stream    bool
	System    string
	// Tools are the names of the tools offered.
	Tools []string
	// Messages are the request's messages, tool_result contents joined into text.
	Messages []conversation.Message
	// Response is the index of the scripted response served, or -1.
	Response int
	// Refused is the error message of a request the fake refused as the API would
	// (a bad key, a malformed conversation, a prompt too long), else "".
	Refused string
	// Usage is what the answer reported: input tokens by cache use, output tokens.
	Usage Usage
}

// Start serves script on a free port of 127.0.0.1 until Close.
func Start(script Script) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("fakeanthropic: listen: %w", err)
	}
	s := &Server{url: "http://" + ln.Addr().String(), changed: make(chan struct{}), cache: map[[32]byte]bool{},
		apiKey: script.APIKey, window: script.ContextWindow, minCache: script.MinCacheTokens}
	if s.minCache == 0 {
		s.minCache = DefaultMinCacheTokens
	}
	s.Add(script.Responses...)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.messages)
	s.srv = &http.Server{Handler: mux}
	go s.srv.Serve(ln)
	return s, nil
}

// URL is the base URL to give the SDK (ANTHROPIC_BASE_URL).
func (s *Server) URL() string { return s.url }

// Close stops the server; streams in progress are cut.
func (s *Server) Close() { s.srv.Close() }

// Add appends responses to the script.
func (s *Server) Add(rs ...Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.responses = append(s.responses, rs...)
	s.used = append(s.used, make([]bool, len(rs))...)
}

// Requests returns the requests received so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Unused returns how many scripted responses have not been served.
func (s *Server) Unused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, u := range s.used {
		if !u {
			n++
		}
	}
	return n
}

// WaitRequests blocks until n requests have arrived or ctx ends.
func (s *Server) WaitRequests(ctx context.Context, n int) error {
	for {
		s.mu.Lock()
		got, ch := len(s.requests), s.changed
		s.mu.Unlock()
		if got >= n {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("fakeanthropic: %d of %d requests arrived: %w", got, n, ctx.Err())
		}
	}
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, 400, "", "cannot read the body: "+err.Error())
		return
	}
	key := r.Header.Get("X-Api-Key")
	if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && key == "" {
		key = bearer
	}
	// The API's order: the key, then the request's shape, then its size.
	status, msg := 0, ""
	switch {
	case key == "":
		status, msg = 401, "x-api-key header is required"
	case s.apiKey != "" && key != s.apiKey:
		status, msg = 401, "invalid x-api-key"
	}
	req, err := parseRequest(body)
	req.APIKey = key
	var segs []segment
	if status == 0 && err != nil {
		status, msg = 400, err.Error()
	}
	if status == 0 {
		if err := checkMessages(req.Messages); err != nil {
			status, msg = 400, err.Error()
		}
	}
	if status == 0 {
		if segs, err = segments(body); err != nil {
			status, msg = 400, err.Error()
		}
	}
	if tokens := total(segs); status == 0 && s.window > 0 && tokens > s.window {
		status, msg = 400, fmt.Sprintf("prompt is too long: %d tokens > %d maximum", tokens, s.window)
	}
	if status != 0 {
		req.Refused = msg
		s.record(req)
		writeError(w, status, "", msg)
		return
	}
	resp, ok := s.take(&req, segs)
	if !ok {
		writeError(w, 400, "", fmt.Sprintf("fakeanthropic: the script has no response left for request %d", len(s.Requests())))
		return
	}
	if resp.Status != 0 {
		if resp.RetryAfter > 0 {
			w.Header().Set("Retry-After", fmt.Sprint(resp.RetryAfter))
		}
		writeError(w, resp.Status, resp.ErrorType, resp.ErrorMessage)
		return
	}
	if !req.Stream {
		writeMessage(w, resp, req)
		return
	}
	streamMessage(r.Context(), w, resp, req)
}

// total is a request's input tokens.
func total(segs []segment) int {
	n := 0
	for _, sg := range segs {
		n += sg.tokens
	}
	return n
}

// record keeps a request that got no scripted response.
func (s *Server) record(req Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req.Response = -1
	s.requests = append(s.requests, req)
	close(s.changed)
	s.changed = make(chan struct{})
}

// take records req and picks its response.
func (s *Server) take(req *Request, segs []segment) (Response, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		if req.Response >= 0 && s.responses[req.Response].Status == 0 {
			// A message is served: its prefix is cached and its usage billed.
			req.Usage, _ = s.account(segs)
			req.Usage.OutputTokens = outputTokens(s.responses[req.Response])
		}
		s.requests = append(s.requests, *req)
		close(s.changed)
		s.changed = make(chan struct{})
	}()
	req.Response = -1
	last := ""
	if n := len(req.Messages); n > 0 {
		last = lastText(req.Messages[n-1])
	}
	for i, r := range s.responses {
		if s.used[i] || (r.When != "" && !strings.Contains(last, r.When)) {
			continue
		}
		s.used[i] = true
		req.Response = i
		return r, true
	}
	return Response{}, false
}

func lastText(m conversation.Message) string {
	var b strings.Builder
	for _, c := range m.Content {
		b.WriteString(c.Text)
		b.WriteString(c.Content)
		b.WriteByte('\n')
	}
	return b.String()
}

// wireBlock decodes a request's content block, whose tool_result content may be a
// string or an array of text blocks.
type wireBlock struct {
	wire.Block
	RawContent json.RawMessage `json:"content"`
}

func parseRequest(body []byte) (Request, error) {
	var p struct {
		Model     string          `json:"model"`
		MaxTokens int             `json:"max_tokens"`
		Stream    bool            `json:"stream"`
		System    json.RawMessage `json:"system"`
		Tools     []struct {
			Name string `json:"name"`
		} `json:"tools"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return Request{}, fmt.Errorf("the body is not a Messages request: %v", err)
	}
	if p.Model == "" || p.MaxTokens <= 0 || len(p.Messages) == 0 {
		return Request{}, errors.New("model, max_tokens and messages are required")
	}
	req := Request{Body: body, Model: p.Model, MaxTokens: p.MaxTokens, Stream: p.Stream, System: joinText(p.System)}
	for _, t := range p.Tools {
		req.Tools = append(req.Tools, t.Name)
	}
	for i, m := range p.Messages {
		msg := conversation.Message{Role: m.Role}
		var text string
		if json.Unmarshal(m.Content, &text) == nil {
			msg.Content = []wire.Block{{Type: wire.BlockText, Text: text}}
		} else {
			var blocks []wireBlock
			if err := json.Unmarshal(m.Content, &blocks); err != nil {
				return Request{}, fmt.Errorf("messages[%d].content: %v", i, err)
			}
			for _, b := range blocks {
				c := b.Block
				if c.Type == wire.BlockToolResult {
					c.Content = joinText(b.RawContent)
				}
				msg.Content = append(msg.Content, c)
			}
		}
		req.Messages = append(req.Messages, msg)
	}
	return req, nil
}

// joinText reads a string, or the texts of an array of text blocks.
func joinText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "")
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	if msg == "" {
		msg = http.StatusText(status)
		if status == 529 {
			msg = "Overloaded"
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", fakeRequestID)
	w.WriteHeader(status)
	// The API's bytes, fields in its order: {"type":"error","error":{"type":…,
	// "message":…},"request_id":…}, one line, "N tokens > M maximum" unescaped.
	body := struct {
		Type  string `json:"type"`
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
		RequestID string `json:"request_id"`
	}{Type: "error", RequestID: fakeRequestID}
	body.Error.Type, body.Error.Message = errorType(status, typ), msg
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(body)
	w.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// fakeRequestID is the request id of every answer, in the API's form (req_011…).
const fakeRequestID = "req_011FakeAnthropicRequest1"

func errorBody(typ, msg string) map[string]any {
	return map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}
}
