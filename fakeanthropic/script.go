package fakeanthropic

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/toolpipe/toolpipe/wire"
)

// Script is what the server answers, in order.
type Script struct {
	Responses []Response `json:"responses"`
	// APIKey, when set, is the only key accepted; any other gets the API's 401. A
	// request without a key is refused either way.
	APIKey string `json:"api_key,omitempty"`
	// ContextWindow, when positive, is the model's window in tokens (BytesPerToken
	// bytes each): a longer request gets the API's 400 "prompt is too long".
	ContextWindow int `json:"context_window,omitempty"`
	// MinCacheTokens is the shortest prefix cached (default DefaultMinCacheTokens;
	// -1 caches every prefix).
	MinCacheTokens int `json:"min_cache_tokens,omitempty"`
}

// Response is the answer to one request.
type Response struct {
	// When, if set, reserves this response for a request whose last message contains
	// the text (in a text block or a tool_result): concurrent sessions (sub-agents)
	// then get their own answers whatever order they call in. A request takes the
	// first unused response whose When matches.
	When string `json:"when,omitempty"`

	// Content is the assistant message: text and tool_use blocks.
	Content []wire.Block `json:"content,omitempty"`
	// StopReason defaults to "tool_use" when Content has a tool_use, else "end_turn".
	StopReason string `json:"stop_reason,omitempty"`

	// Status, when set, answers with this HTTP status and an error body instead of a
	// message: 429 rate_limit_error, 500 api_error, 529 overloaded_error, 400
	// invalid_request_error (ErrorType overrides the type).
	Status       int    `json:"status,omitempty"`
	ErrorType    string `json:"error_type,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
	// RetryAfter, in seconds, is sent as the retry-after header of an error answer,
	// as the API does on 429 and 529.
	RetryAfter int `json:"retry_after,omitempty"`

	// FailAfterBlocks, when positive, streams that many content blocks and then an
	// SSE error event (ErrorType, default overloaded_error), as the real API does when
	// it fails mid-stream. DropAfterBlocks closes the connection there instead.
	FailAfterBlocks int `json:"fail_after_blocks,omitempty"`
	DropAfterBlocks int `json:"drop_after_blocks,omitempty"`

	// DelayMS pauses before every event, as a slow model streams.
	DelayMS int `json:"delay_ms,omitempty"`
	// HoldBeforeEnd, in Go only, is waited on after the last content block and before
	// message_delta: the message has not ended until the test closes it.
	HoldBeforeEnd <-chan struct{} `json:"-"`
	// HoldAfterBlock, in Go only, is waited on after content block HoldIndex stopped.
	HoldAfterBlock <-chan struct{} `json:"-"`
	HoldIndex      int             `json:"-"`
}

// LoadScript reads a script from a JSON file.
func LoadScript(path string) (Script, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Script{}, fmt.Errorf("fakeanthropic: %w", err)
	}
	var s Script
	if err := json.Unmarshal(b, &s); err != nil {
		return Script{}, fmt.Errorf("fakeanthropic: %s: %w", path, err)
	}
	for i, r := range s.Responses {
		if err := r.validate(); err != nil {
			return Script{}, fmt.Errorf("fakeanthropic: %s: response %d: %w", path, i, err)
		}
	}
	return s, nil
}

func (r Response) validate() error {
	if r.Status != 0 && (r.Status < 400 || r.Status > 599) {
		return fmt.Errorf("status %d is not an error status", r.Status)
	}
	for _, b := range r.Content {
		switch b.Type {
		case wire.BlockText:
		case wire.BlockToolUse:
			if b.ID == "" || b.Name == "" {
				return fmt.Errorf("tool_use block without id or name")
			}
			if len(b.Input) > 0 && !json.Valid(b.Input) {
				return fmt.Errorf("tool_use %s: input is not JSON", b.ID)
			}
		default:
			return fmt.Errorf("content block type %q: the fake streams text and tool_use", b.Type)
		}
	}
	return nil
}

func (r Response) stopReason() string {
	if r.StopReason != "" {
		return r.StopReason
	}
	for _, b := range r.Content {
		if b.Type == wire.BlockToolUse {
			return "tool_use"
		}
	}
	return "end_turn"
}

func (r Response) delay() time.Duration { return time.Duration(r.DelayMS) * time.Millisecond }

// errorType is the API's error type for an HTTP status.
func errorType(status int, override string) string {
	if override != "" {
		return override
	}
	switch status {
	case 429:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	case 401:
		return "authentication_error"
	case 404:
		return "not_found_error"
	case 413:
		return "request_too_large"
	}
	if status >= 500 {
		return "api_error"
	}
	return "invalid_request_error"
}
