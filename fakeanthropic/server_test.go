package fakeanthropic

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolpipe/toolpipe/wire"
)

func start(t *testing.T, rs ...Response) *Server {
	t.Helper()
	s, err := Start(Script{Responses: rs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func newClient(s *Server) *anthropic.Client {
	c := anthropic.NewClient(option.WithAPIKey("k-test"), option.WithBaseURL(s.URL()), option.WithMaxRetries(0))
	return &c
}

func params(text string) anthropic.MessageNewParams {
	return anthropic.MessageNewParams{Model: "m", MaxTokens: 100, Messages: []anthropic.MessageParam{
		anthropic.NewUserMessage(anthropic.NewTextBlock(text)),
	}}
}

// The real SDK accumulates the fake's stream into the scripted message: texts and
// tool inputs split over many deltas, the stop reason from message_delta.
func TestStreamThroughSDK(t *testing.T) {
	input := `{"command":"echo a rather long command line that spans several deltas"}`
	s := start(t, Response{Content: []wire.Block{
		{Type: "text", Text: "Let me run a command — with some UTF-8: é, 日本."},
		{Type: "tool_use", ID: "toolu_1", Name: "Bash", Input: json.RawMessage(input)},
	}})
	stream := newClient(s).Messages.NewStreaming(context.Background(), params("hi"))
	var acc anthropic.Message
	events := 0
	for stream.Next() {
		events++
		if err := acc.Accumulate(stream.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if acc.StopReason != "tool_use" || len(acc.Content) != 2 || events < 10 {
		t.Fatalf("stop %q, %d blocks, %d events", acc.StopReason, len(acc.Content), events)
	}
	if acc.Content[0].Text != "Let me run a command — with some UTF-8: é, 日本." {
		t.Errorf("text %q", acc.Content[0].Text)
	}
	if string(acc.Content[1].Input) != input || acc.Content[1].ID != "toolu_1" || acc.Content[1].Name != "Bash" {
		t.Errorf("tool_use %+v", acc.Content[1])
	}
	reqs := s.Requests()
	if len(reqs) != 1 || reqs[0].APIKey != "k-test" || !reqs[0].Stream || reqs[0].Messages[0].Content[0].Text != "hi" {
		t.Fatalf("recorded %+v", reqs)
	}
}

// Error statuses reach the SDK as API errors with their status and type, also when
// the error arrives mid-stream.
func TestErrors(t *testing.T) {
	s := start(t,
		Response{Status: 529}, Response{Status: 429}, Response{Status: 500}, Response{Status: 400, ErrorMessage: "bad"},
		Response{Content: []wire.Block{{Type: "text", Text: "one"}, {Type: "text", Text: "two"}}, FailAfterBlocks: 1},
	)
	for _, want := range []struct {
		status int
		typ    string
	}{{529, "overloaded_error"}, {429, "rate_limit_error"}, {500, "api_error"}, {400, "invalid_request_error"}, {200, "overloaded_error"}} {
		stream := newClient(s).Messages.NewStreaming(context.Background(), params("x"))
		for stream.Next() {
		}
		var apiErr *anthropic.Error
		if err := stream.Err(); !errors.As(err, &apiErr) || apiErr.StatusCode != want.status || string(apiErr.Type()) != want.typ {
			t.Errorf("got %v, want %d %s", err, want.status, want.typ)
		}
	}
	// The script is used up: the next request is refused, not hung.
	stream := newClient(s).Messages.NewStreaming(context.Background(), params("x"))
	for stream.Next() {
	}
	if stream.Err() == nil {
		t.Error("a request past the script succeeded")
	}
}

// When routes concurrent callers; a held message does not end until released.
func TestWhenAndHold(t *testing.T) {
	hold := make(chan struct{})
	s := start(t,
		Response{When: "beta", Content: []wire.Block{{Type: "text", Text: "for beta"}}},
		Response{When: "alpha", Content: []wire.Block{{Type: "text", Text: "for alpha"}}, HoldBeforeEnd: hold},
	)
	done := make(chan anthropic.Message)
	go func() {
		stream := newClient(s).Messages.NewStreaming(context.Background(), params("alpha please"))
		var acc anthropic.Message
		for stream.Next() {
			acc.Accumulate(stream.Current())
		}
		done <- acc
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.WaitRequests(ctx, 1); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
		t.Fatal("the held message ended before it was released")
	case <-time.After(200 * time.Millisecond):
	}
	close(hold)
	if m := <-done; m.Content[0].Text != "for alpha" || m.StopReason != "end_turn" {
		t.Fatalf("alpha got %+v", m)
	}
	if s.Unused() != 1 {
		t.Fatalf("unused %d", s.Unused())
	}
}
