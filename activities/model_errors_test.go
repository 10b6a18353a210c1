package activities

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
)

// The API's own answers, from a fake that sends its real bodies and statuses, are
// typed where the model activity reads them, so that nothing downstream matches
// their text: over the window is PromptTooLong (the session compacts), another 400
// and a 401 are ModelRejected, a 529 is ModelUnavailable (retried).
func TestModelErrorTypesFromTheAPIsAnswers(t *testing.T) {
	srv, err := fakeanthropic.Start(fakeanthropic.Script{APIKey: "k", ContextWindow: 100, Responses: []fakeanthropic.Response{
		{When: "small", Status: 400, ErrorMessage: "messages: roles must alternate"},
		{When: "busy", Status: 529},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	call := func(key, text string) error {
		c := anthropic.NewClient(option.WithBaseURL(srv.URL()), option.WithAPIKey(key), option.WithMaxRetries(0))
		_, err := c.Messages.New(context.Background(), anthropic.MessageNewParams{
			Model: "claude-sonnet-4-5", MaxTokens: 10,
			Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(text))},
		})
		if err == nil {
			t.Fatalf("%q: the fake answered", text)
		}
		return modelError(err)
	}
	for _, c := range []struct {
		name, key, text, want string
		tooLong               bool
	}{
		{"over the window", "k", strings.Repeat("x", 2000), contract.ErrPromptTooLong, true},
		{"another 400", "k", "small", contract.ErrModelRejected, false},
		{"bad key", "wrong", "small", contract.ErrModelRejected, false},
		{"overloaded", "k", "busy", contract.ErrModelUnavailable, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := call(c.key, c.text)
			var app *temporal.ApplicationError
			if !errors.As(err, &app) || app.Type() != c.want {
				t.Fatalf("got %v, want type %s", err, c.want)
			}
			if contract.IsPromptTooLong(err) != c.tooLong {
				t.Fatalf("IsPromptTooLong(%v) = %v", err, !c.tooLong)
			}
		})
	}
}

// A failure recorded before PromptTooLong existed (ModelRejected with the API's
// text) is still recognised, so that such histories replay with the same decisions.
func TestRecordedPromptTooLongStillRecognised(t *testing.T) {
	old := temporal.NewApplicationErrorWithOptions("model: 400 invalid_request_error: prompt is too long: 300 tokens > 100 maximum",
		contract.ErrModelRejected, temporal.ApplicationErrorOptions{NonRetryable: true})
	if !contract.IsPromptTooLong(old) {
		t.Fatal("a recorded ModelRejected prompt-too-long failure is not recognised")
	}
	if contract.IsPromptTooLong(errors.New("prompt is too long")) {
		t.Fatal("an untyped error is taken for the API's refusal")
	}
}
