package activities

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/toolenv"
	"github.com/toolpipe/toolpipe/wire"
)

// promptHookMaxTokens bounds the answer: a JSON object with a short reason.
const promptHookMaxTokens = 1024

// ErrNoModel is what a prompt hook says when the worker has no API key.
const ErrNoModel = "no model to ask: the worker has no ANTHROPIC_API_KEY; set it in the worker's environment " +
	"(ANTHROPIC_BASE_URL for another endpoint), or make this a command hook"

// RunPromptHook asks the model a prompt hook's question (hooks.PromptMessage) through
// the agent's client, with the answer's JSON Schema as the output format, and returns
// its text to be recorded in history; what it means is for hooks.ParsePrompt to say.
// The model is the hook's own, else the small fast model Claude Code uses
// (ANTHROPIC_DEFAULT_HAIKU_MODEL, ANTHROPIC_SMALL_FAST_MODEL, else
// DefaultWebFetchModel). No API key, a refused request (4xx) and a timeout are
// results (non-blocking, as in Claude Code); an overloaded or unreachable API is an
// activity error, which Temporal retries within the hook's attempts.
func (a *Agent) RunPromptHook(ctx context.Context, inv hooks.PromptInvocation) (hooks.PromptRun, error) {
	run := hooks.PromptRun{Model: promptHookModel(inv), Timeout: inv.Timeout()}
	if a.cfg.APIKey == "" {
		run.Failure = ErrNoModel
		return run, nil
	}
	stop := keepAlive(ctx, inv.ToolUseID, nil)
	defer stop()
	callCtx, cancel := context.WithTimeout(ctx, run.Timeout)
	defer cancel()
	start := time.Now()
	msg, err := a.client.Messages.New(callCtx, anthropic.MessageNewParams{
		Model:     anthropic.Model(run.Model),
		MaxTokens: promptHookMaxTokens,
		System:    []anthropic.TextBlockParam{{Text: hooks.PromptSystem(inv.Event)}},
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(inv.Message))},
		OutputConfig: anthropic.OutputConfigParam{
			Format: anthropic.JSONOutputFormatParam{Schema: hooks.PromptAnswerSchema()},
		},
	})
	run.Duration = time.Since(start)
	if err == nil {
		noteModelResponse(ctx, *msg) // for its span (telemetry_model.go)
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return hooks.PromptRun{}, ctx.Err() // cancelled with its call
	case err != nil && errors.Is(callCtx.Err(), context.DeadlineExceeded):
		run.TimedOut = true
		return run, nil
	case err != nil:
		merr := modelError(err)
		var app *temporal.ApplicationError
		if errors.As(merr, &app) && app.NonRetryable() {
			run.Failure = app.Message()
			return run, nil
		}
		return run, merr
	}
	var answer strings.Builder
	for _, c := range msg.Content {
		if c.Type == wire.BlockText {
			answer.WriteString(c.Text)
		}
	}
	run.Answer = answer.String()
	if len(run.Answer) > hooks.OutputCap {
		run.Answer = strings.ToValidUTF8(run.Answer[:hooks.OutputCap], "")
	}
	return run, nil
}

// promptHookModel is the model a prompt hook asks: its own, else the small fast one.
func promptHookModel(inv hooks.PromptInvocation) string {
	if inv.Model != "" {
		return inv.Model
	}
	return smallFastModel()
}

// smallFastModel is the model prompt hooks ask when they name none, read from the
// worker's environment as Claude Code reads it.
func smallFastModel() string {
	for _, k := range []string{"ANTHROPIC_DEFAULT_HAIKU_MODEL", "ANTHROPIC_SMALL_FAST_MODEL"} {
		if v := toolenv.Getenv(k); v != "" {
			return v
		}
	}
	return DefaultWebFetchModel
}
