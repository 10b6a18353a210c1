package claudesdk

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// block is one content block the fake model sends: text, or a tool_use.
type block struct {
	Text  string          `json:"text,omitempty"`
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

func text(s string) block { return block{Text: s} }

func use(id, name, input string) block {
	return block{ID: id, Name: name, Input: json.RawMessage(input)}
}

// fakeModel is a scripted Messages API for both executables: the agent's
// requests (those offering tools) get the scripted assistant messages one after
// another; Claude Code's side requests (a title, a summary: no tools) get a short
// text without advancing the script. Every agent request is recorded, so a test
// compares what each executable told the model.
type fakeModel struct {
	script [][]block

	mu       sync.Mutex
	next     int
	requests []modelRequest
}

// modelRequest is an agent request as the fake decoded it.
type modelRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// startFake serves script on 127.0.0.1 until the test ends and returns its URL.
func startFake(t *testing.T, script [][]block) (*fakeModel, string) {
	t.Helper()
	m := &fakeModel{script: script}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: m}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return m, "http://" + ln.Addr().String()
}

// exhausted is the text of an agent request past the end of the script.
const exhausted = "(the fake model's script has ended)"

func (m *fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1/messages") {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("{}"))
		return
	}
	if strings.HasSuffix(r.URL.Path, "/count_tokens") {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"input_tokens":%d}`, len(body)/4+1)
		return
	}
	var req modelRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"body is not JSON"}}`, http.StatusBadRequest)
		return
	}
	reply := []block{text("ok")}
	if len(req.Tools) > 0 {
		m.mu.Lock()
		m.requests = append(m.requests, req)
		reply = []block{text(exhausted)}
		if m.next < len(m.script) {
			reply = m.script[m.next]
		}
		m.next++
		m.mu.Unlock()
	}
	if !req.Stream {
		writeJSON(w, req.Model, reply)
		return
	}
	writeSSE(w, req.Model, reply)
}

// agentRequests returns the requests that offered tools, in order.
func (m *fakeModel) agentRequests() []modelRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]modelRequest(nil), m.requests...)
}

func stopReason(blocks []block) string {
	for _, b := range blocks {
		if b.ID != "" {
			return "tool_use"
		}
	}
	return "end_turn"
}

func wireBlock(b block) map[string]any {
	if b.ID != "" {
		return map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": b.Input}
	}
	return map[string]any{"type": "text", "text": b.Text}
}

var usage = map[string]any{"input_tokens": 100, "output_tokens": 20, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}

func writeJSON(w http.ResponseWriter, model string, blocks []block) {
	content := make([]any, len(blocks))
	for i, b := range blocks {
		content[i] = wireBlock(b)
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": stopReason(blocks), "stop_sequence": nil, "usage": usage})
}

// writeSSE streams one assistant message in the API's server-sent events.
func writeSSE(w http.ResponseWriter, model string, blocks []block) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("request-id", "req_fake")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	send := func(event string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		if fl != nil {
			fl.Flush()
		}
	}
	send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	}})
	for i, b := range blocks {
		if b.ID != "" {
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}})
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(b.Input)}})
		} else {
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": b.Text}})
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stopReason(blocks), "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 20}})
	send("message_stop", map[string]any{"type": "message_stop"})
}
