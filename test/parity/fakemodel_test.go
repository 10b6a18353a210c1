package parity

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
)

// scriptBlock is one tool_use block the fake model sends.
type scriptBlock struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// recordedResult is one tool_result block as Claude Code sent it back.
type recordedResult struct {
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// recordingModel is a fake of the Messages API for Claude Code: the agent's requests
// (those offering tools) are answered with the scripted assistant messages one after
// another, one per request, then with a final text; the tool_result blocks of every
// request are recorded. Claude Code's side requests (titles, summaries) get a short
// text. It answers in server-sent events, as the API does when asked to stream.
type recordingModel struct {
	script [][]scriptBlock
	// hookMarker and hookAnswer: a request without tools whose body contains the
	// marker (a prompt hook's question) is answered with hookAnswer.
	hookMarker, hookAnswer string

	mu         sync.Mutex
	results    map[string]recordedResult
	bodies     [][]byte
	hookBodies [][]byte
	next       int
}

func newRecordingModel(t *testing.T, script [][]scriptBlock) (*recordingModel, string) {
	m := &recordingModel{script: script, results: map[string]recordedResult{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: m}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return m, "http://" + ln.Addr().String()
}

type apiRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	Tools  []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

func (m *recordingModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1/messages") {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("{}"))
		return
	}
	var body json.RawMessage
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if strings.HasSuffix(r.URL.Path, "/count_tokens") {
		// A token for every four bytes, as the API roughly counts English text, so
		// Claude Code's token limits trigger where they would for real.
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"input_tokens":%d}`, len(body)/4+1)
		return
	}
	var req apiRequest
	json.Unmarshal(body, &req)
	var blocks []scriptBlock
	m.mu.Lock()
	m.bodies = append(m.bodies, body)
	if len(req.Tools) > 0 {
		m.record(req)
		if m.next < len(m.script) {
			blocks = m.script[m.next]
		}
		m.next++
	}
	answer := "done"
	if len(req.Tools) == 0 && m.hookMarker != "" && strings.Contains(string(body), m.hookMarker) {
		answer = m.hookAnswer
		m.hookBodies = append(m.hookBodies, body)
	}
	m.mu.Unlock()
	if !req.Stream {
		writeJSONMessage(w, req.Model, answer)
		return
	}
	writeSSEText(w, req.Model, blocks, answer)
}

// writeJSONMessage answers a request that did not ask to stream.
func writeJSONMessage(w http.ResponseWriter, model, text string) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"id": "msg_parity", "type": "message", "role": "assistant", "model": model,
		"content": []any{map[string]any{"type": "text", "text": text}}, "stop_reason": "end_turn", "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5}})
}

// hookRequests returns the bodies of the prompt-hook requests.
func (m *recordingModel) hookRequests() [][]byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.hookBodies)
}

// record keeps the tool_result blocks of the request's user messages (Claude Code
// merges consecutive ones, so they are not all in the last message).
func (m *recordingModel) record(req apiRequest) {
	var content []json.RawMessage
	for _, msg := range req.Messages {
		var cs []json.RawMessage
		if msg.Role == "user" && json.Unmarshal(msg.Content, &cs) == nil {
			content = append(content, cs...)
		}
	}
	for _, c := range content {
		var r struct {
			Type string `json:"type"`
			recordedResult
		}
		if json.Unmarshal(c, &r) == nil && r.Type == "tool_result" {
			m.results[r.ToolUseID] = r.recordedResult
		}
	}
}

// result returns what Claude Code sent back for a tool_use id.
func (m *recordingModel) result(id string) (recordedResult, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.results[id]
	return r, ok
}

// writeSSE streams one assistant message: the tool_use blocks, or a final text when
// there are none.
func writeSSE(w http.ResponseWriter, model string, blocks []scriptBlock) {
	writeSSEText(w, model, blocks, "done")
}

// writeSSEText is writeSSE with the final text given.
func writeSSEText(w http.ResponseWriter, model string, blocks []scriptBlock, text string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("request-id", "req_parity")
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
		"id": "msg_parity", "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1},
	}})
	stop := "tool_use"
	if len(blocks) == 0 {
		stop = "end_turn"
		send("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": text}})
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	}
	for i, b := range blocks {
		send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}})
		send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(b.Input)}})
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	send("message_stop", map[string]any{"type": "message_stop"})
}

// systemNotes are the paragraphs of the system messages in the last request offering
// tools that speak of hooks: where Claude Code tells the model what hooks said
// about the calls (blocking errors, additional context).
func (m *recordingModel) systemNotes() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var last apiRequest
	for _, b := range m.bodies {
		var req apiRequest
		if json.Unmarshal(b, &req) == nil && len(req.Tools) > 0 {
			last = req
		}
	}
	var out []string
	for _, msg := range last.Messages {
		if msg.Role != "system" {
			continue
		}
		for _, p := range strings.Split(flatten(msg.Content), "\n\n") {
			if strings.Contains(p, " hook ") {
				out = append(out, p)
			}
		}
	}
	return out
}
