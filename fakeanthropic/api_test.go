package fakeanthropic

import (
	"context"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolpipe/toolpipe/wire"
)

func startScript(t *testing.T, sc Script) *Server {
	t.Helper()
	s, err := Start(sc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func send(t *testing.T, s *Server, key string, p anthropic.MessageNewParams) (anthropic.Message, error) {
	t.Helper()
	opts := []option.RequestOption{option.WithBaseURL(s.URL()), option.WithMaxRetries(0)}
	if key != "" {
		opts = append(opts, option.WithAPIKey(key))
	} else {
		opts = append(opts, option.WithAPIKey(""), option.WithHeaderDel("x-api-key"))
	}
	c := anthropic.NewClient(opts...)
	stream := c.Messages.NewStreaming(context.Background(), p)
	var acc anthropic.Message
	for stream.Next() {
		if err := acc.Accumulate(stream.Current()); err != nil {
			return acc, err
		}
	}
	return acc, stream.Err()
}

func apiError(t *testing.T, err error, status int, typ, msg string) {
	t.Helper()
	var ae *anthropic.Error
	if !errors.As(err, &ae) || ae.StatusCode != status || string(ae.Type()) != typ || !strings.Contains(ae.Error(), msg) {
		t.Fatalf("got %v, want %d %s %q", err, status, typ, msg)
	}
}

// A missing or wrong key gets the API's 401 and consumes no scripted answer.
func TestAPIKeyChecked(t *testing.T) {
	s := startScript(t, Script{APIKey: "right", Responses: []Response{{Content: []wire.Block{{Type: "text", Text: "ok"}}}}})
	_, err := send(t, s, "wrong", params("x"))
	apiError(t, err, 401, "authentication_error", "invalid x-api-key")
	_, err = send(t, s, "", params("x"))
	apiError(t, err, 401, "authentication_error", "x-api-key header is required")
	if m, err := send(t, s, "right", params("x")); err != nil || m.Content[0].Text != "ok" {
		t.Fatalf("right key: %v %+v", err, m)
	}
	if reqs := s.Requests(); len(reqs) != 3 || reqs[0].Refused != "invalid x-api-key" || reqs[2].Refused != "" {
		t.Fatalf("recorded %+v", reqs)
	}
}

// The refusal of a request over the window is the API's body byte for byte, fields
// in its order (as a client logging it, or a proxy passing it on, shows it):
// {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too
// long: 200251 tokens > 200000 maximum"},"request_id":"req_011CWdepJvA2D819tdYYq4h7"}.
func TestContextWindowRefusalBody(t *testing.T) {
	s := startScript(t, Script{ContextWindow: 100})
	body := `{"model":"claude-sonnet-4-5","max_tokens":10,"messages":[{"role":"user","content":"` + strings.Repeat("a", 1000) + `"}]}`
	req, _ := http.NewRequest("POST", s.URL()+"/v1/messages", strings.NewReader(body))
	req.Header.Set("x-api-key", "k")
	req.Header.Set("content-type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	want := regexp.MustCompile(`^\{"type":"error","error":\{"type":"invalid_request_error","message":"prompt is too long: \d+ tokens > 100 maximum"\},"request_id":"req_011[A-Za-z0-9]{21}"\}$`)
	if resp.StatusCode != 400 || !want.Match(got) || resp.Header.Get("request-id") == "" {
		t.Fatalf("%d %s", resp.StatusCode, got)
	}
}

// A request over the window gets the real 400 body, with the counts.
func TestContextWindow(t *testing.T) {
	s := startScript(t, Script{ContextWindow: 100, Responses: []Response{{Content: []wire.Block{{Type: "text", Text: "ok"}}}}})
	_, err := send(t, s, "k", params(strings.Repeat("a", 1000)))
	apiError(t, err, 400, "invalid_request_error", "prompt is too long: ")
	if !strings.Contains(err.Error(), " tokens > 100 maximum") {
		t.Fatalf("message %v", err)
	}
	if m, err := send(t, s, "k", params("short")); err != nil || m.Content[0].Text != "ok" {
		t.Fatalf("short request: %v", err)
	}
}

// Usage grows with the request: input tokens are the body's blocks over BytesPerToken.
func TestUsageProportional(t *testing.T) {
	s := startScript(t, Script{Responses: []Response{
		{Content: []wire.Block{{Type: "text", Text: "a"}}}, {Content: []wire.Block{{Type: "text", Text: strings.Repeat("b", 400)}}},
	}})
	small, err := send(t, s, "k", params("x"))
	if err != nil {
		t.Fatal(err)
	}
	big, err := send(t, s, "k", params(strings.Repeat("x", 4000)))
	if err != nil {
		t.Fatal(err)
	}
	if d := big.Usage.InputTokens - small.Usage.InputTokens; d < 990 || d > 1010 {
		t.Errorf("4,000 more bytes gave %d more input tokens, want about 1,000", d)
	}
	if big.Usage.OutputTokens < 100 || small.Usage.OutputTokens > 2 {
		t.Errorf("output tokens %d and %d", small.Usage.OutputTokens, big.Usage.OutputTokens)
	}
	if reqs := s.Requests(); reqs[1].Usage.InputTokens != int(big.Usage.InputTokens) {
		t.Errorf("recorded %+v, reported %+v", reqs[1].Usage, big.Usage)
	}
}

// A prefix with cache_control is written the first time and read after; what
// follows the last breakpoint is plain input; a conversation that grows reads the
// previous call's prefix through the lookback.
func TestCacheAccounting(t *testing.T) {
	ok := Response{Content: []wire.Block{{Type: "text", Text: "ok"}}}
	s := startScript(t, Script{MinCacheTokens: -1, Responses: []Response{ok, ok, ok}})
	long := strings.Repeat("system prompt ", 400)
	cached := func(msgs ...anthropic.MessageParam) anthropic.MessageNewParams {
		content := msgs[len(msgs)-1].OfUser.Content
		last := &content[len(content)-1]
		last.OfText.CacheControl = anthropic.NewCacheControlEphemeralParam()
		return anthropic.MessageNewParams{Model: "m", MaxTokens: 10, Messages: msgs,
			System: []anthropic.TextBlockParam{{Text: long, CacheControl: anthropic.NewCacheControlEphemeralParam()}}}
	}
	u1 := anthropic.NewUserMessage(anthropic.NewTextBlock("first question"))
	a1 := anthropic.NewAssistantMessage(anthropic.NewTextBlock("first answer"))
	first, err := send(t, s, "k", cached(u1))
	if err != nil {
		t.Fatal(err)
	}
	if first.Usage.CacheReadInputTokens != 0 || first.Usage.CacheCreationInputTokens < 1400 || first.Usage.InputTokens != 0 {
		t.Fatalf("first call %+v", first.Usage)
	}
	u1again := anthropic.NewUserMessage(anthropic.NewTextBlock("first question"))
	second, err := send(t, s, "k", cached(u1again, a1, anthropic.NewUserMessage(anthropic.NewTextBlock("second"))))
	if err != nil {
		t.Fatal(err)
	}
	if second.Usage.CacheReadInputTokens != first.Usage.CacheCreationInputTokens || second.Usage.CacheCreationInputTokens == 0 {
		t.Fatalf("second call %+v after %+v", second.Usage, first.Usage)
	}
	// Without breakpoints nothing is cached or read.
	plain, err := send(t, s, "k", params(long))
	if err != nil {
		t.Fatal(err)
	}
	if plain.Usage.CacheReadInputTokens != 0 || plain.Usage.CacheCreationInputTokens != 0 || plain.Usage.InputTokens < 1400 {
		t.Fatalf("uncached call %+v", plain.Usage)
	}
}

// The conversations the API refuses are refused with its messages, and cost no
// scripted answer.
func TestMalformedConversationsRefused(t *testing.T) {
	ok := Response{Content: []wire.Block{{Type: "text", Text: "ok"}}}
	s := startScript(t, Script{Responses: []Response{ok}})
	use := anthropic.NewAssistantMessage(anthropic.NewToolUseBlock("toolu_1", map[string]any{}, "Bash"))
	result := func(id string) anthropic.MessageParam {
		return anthropic.NewUserMessage(anthropic.NewToolResultBlock(id, "out", false))
	}
	user := anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))
	for _, c := range []struct {
		msgs []anthropic.MessageParam
		want string
	}{
		{[]anthropic.MessageParam{user, use, user}, "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1."},
		{[]anthropic.MessageParam{user, result("toolu_9")}, "messages.1.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9."},
		{[]anthropic.MessageParam{use, result("toolu_1")}, `first message must use the \"user\" role`},
	} {
		_, err := send(t, s, "k", anthropic.MessageNewParams{Model: "m", MaxTokens: 10, Messages: c.msgs})
		apiError(t, err, 400, "invalid_request_error", c.want)
	}
	// Consecutive user messages are one turn, as the API combines them.
	if _, err := send(t, s, "k", anthropic.MessageNewParams{Model: "m", MaxTokens: 10,
		Messages: []anthropic.MessageParam{user, use, result("toolu_1"), user}}); err != nil {
		t.Fatal(err)
	}
}

// 429 and 529 carry retry-after when scripted.
func TestRetryAfterHeader(t *testing.T) {
	s := startScript(t, Script{Responses: []Response{{Status: 429, RetryAfter: 7}}})
	req, _ := http.NewRequest("POST", s.URL()+"/v1/messages", strings.NewReader(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"x"}]}`))
	req.Header.Set("x-api-key", "k")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "7" || !strings.Contains(string(body), `"rate_limit_error"`) {
		t.Fatalf("%d %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
}
