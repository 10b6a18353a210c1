package fakeanthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/toolpipe/toolpipe/wire"
)

// chunk is how many bytes each text_delta or input_json_delta carries: small, so the
// client really accumulates partial JSON across events.
const chunk = 16

// messageID names a fake message after the request it answers.
func messageID(req Request) string { return fmt.Sprintf("msg_fake_%d", req.Response) }

// outputTokens counts a scripted message's tokens as the tokenizer counts input.
func outputTokens(r Response) int {
	out := 0
	for _, b := range r.Content {
		out += (len(b.Text) + len(b.Input) + BytesPerToken - 1) / BytesPerToken
	}
	return out + 1
}

func blockStart(b wire.Block) map[string]any {
	if b.Type == wire.BlockToolUse {
		return map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}
	}
	return map[string]any{"type": "text", "text": ""}
}

// deltas splits a block's text or input into streamed pieces.
func deltas(b wire.Block) []map[string]any {
	var out []map[string]any
	if b.Type == wire.BlockToolUse {
		in := string(b.Input)
		if in == "" {
			in = "{}"
		}
		for i := 0; i < len(in); i += chunk {
			out = append(out, map[string]any{"type": "input_json_delta", "partial_json": in[i:min(i+chunk, len(in))]})
		}
		return out
	}
	runes := []rune(b.Text)
	for i := 0; i < len(runes); i += chunk {
		out = append(out, map[string]any{"type": "text_delta", "text": string(runes[i:min(i+chunk, len(runes))])})
	}
	return out
}

// streamMessage writes r as server-sent events, pausing as r says.
func streamMessage(ctx context.Context, w http.ResponseWriter, r Response, req Request) {
	fl, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("request-id", fakeRequestID)
	w.WriteHeader(http.StatusOK)
	send := func(event string, data any) bool {
		if d := r.delay(); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return false
			}
		}
		b, _ := json.Marshal(data)
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	wait := func(ch <-chan struct{}) bool {
		if ch == nil {
			return true
		}
		select {
		case <-ch:
			return true
		case <-ctx.Done():
			return false
		}
	}
	start := req.Usage
	start.OutputTokens = 1
	if !send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": messageID(req), "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": start,
	}}) {
		return
	}
	send("ping", map[string]any{"type": "ping"})
	for i, b := range r.Content {
		if r.FailAfterBlocks > 0 && i == r.FailAfterBlocks {
			send("error", errorBody(errorType(529, r.ErrorType), "Overloaded"))
			return
		}
		if r.DropAfterBlocks > 0 && i == r.DropAfterBlocks {
			return // the handler returns mid-stream: the client sees the body end early
		}
		if !send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": blockStart(b)}) {
			return
		}
		for _, d := range deltas(b) {
			if !send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d}) {
				return
			}
		}
		if !send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i}) {
			return
		}
		if r.HoldAfterBlock != nil && r.HoldIndex == i && !wait(r.HoldAfterBlock) {
			return
		}
	}
	if !wait(r.HoldBeforeEnd) {
		return
	}
	if !send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": r.stopReason(), "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": req.Usage.OutputTokens}}) {
		return
	}
	send("message_stop", map[string]any{"type": "message_stop"})
}

// writeMessage answers a non-streaming request with the whole message.
func writeMessage(w http.ResponseWriter, r Response, req Request) {
	content := make([]any, 0, len(r.Content))
	for _, b := range r.Content {
		if b.Type == wire.BlockToolUse {
			in := b.Input
			if len(in) == 0 {
				in = json.RawMessage("{}")
			}
			content = append(content, map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": in})
		} else {
			content = append(content, map[string]any{"type": "text", "text": b.Text})
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": messageID(req), "type": "message", "role": "assistant", "model": req.Model, "content": content,
		"stop_reason": r.stopReason(), "stop_sequence": nil, "usage": req.Usage,
	})
}
