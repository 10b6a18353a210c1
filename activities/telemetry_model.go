package activities

import (
	"context"
	"errors"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/hooks"
)

// Span attributes of a model call, from OpenTelemetry's semantic conventions for
// generative AI client spans ("chat {model}"), so that tracing back ends that know
// them show the model, the tokens and why the message ended.
const (
	// AttrProvider and AttrSystem both name the provider: gen_ai.provider.name is
	// the current convention, gen_ai.system the one older back ends read.
	AttrProvider      = attribute.Key("gen_ai.provider.name")
	AttrSystem        = attribute.Key("gen_ai.system")
	AttrRequestModel  = attribute.Key("gen_ai.request.model")
	AttrMaxTokens     = attribute.Key("gen_ai.request.max_tokens")
	AttrResponseModel = attribute.Key("gen_ai.response.model")
	AttrResponseID    = attribute.Key("gen_ai.response.id")
	AttrFinishReasons = attribute.Key("gen_ai.response.finish_reasons")
	// AttrInputTokens counts every input token of the request, cached or not, as the
	// conventions ask of Anthropic instrumentations; the two cache counts say how
	// many of them were read from the prompt cache or written to it.
	AttrInputTokens         = attribute.Key("gen_ai.usage.input_tokens")
	AttrOutputTokens        = attribute.Key("gen_ai.usage.output_tokens")
	AttrCacheReadTokens     = attribute.Key("gen_ai.usage.cache_read.input_tokens")
	AttrCacheCreationTokens = attribute.Key("gen_ai.usage.cache_creation.input_tokens")
	// AttrModelReused: the message was stored by an earlier attempt and was not asked
	// of the model again (no tokens were spent).
	AttrModelReused = attribute.Key("toolpipe.model.reused")
	AttrSeq         = attribute.Key("toolpipe.message.seq")
)

// providerAnthropic is the gen_ai.provider.name of the Anthropic Messages API.
const providerAnthropic = "anthropic"

// modelCallKey finds the model call's record in the context the streaming code runs
// in, so that what only the response tells (its model and id) reaches the span.
type modelCallKey struct{}

// modelCall is what the stream reported, for the span.
type modelCall struct {
	answered bool
	model    string
	id       string
	usage    conversation.Usage // the response's, for calls whose reply does not carry it
}

// noteModelResponse records the response of a streamed model call for its span;
// nothing happens outside a traced model activity.
func noteModelResponse(ctx context.Context, m anthropic.Message) {
	if c, ok := ctx.Value(modelCallKey{}).(*modelCall); ok {
		c.answered, c.model, c.id = true, string(m.Model), m.ID
		c.usage = conversation.Usage{InputTokens: m.Usage.InputTokens, OutputTokens: m.Usage.OutputTokens,
			CacheCreationInputTokens: m.Usage.CacheCreationInputTokens, CacheReadInputTokens: m.Usage.CacheReadInputTokens}
	}
}

// modelOutcome is what a model activity's reply tells its span: the usage (zero:
// take the response's), the stop reason, and a failure the activity answers as a
// result rather than an error (a prompt hook's refused or timed-out call), with its
// error.type.
type modelOutcome struct {
	usage             conversation.Usage
	stop              string
	failure, failType string
}

// observedModel wraps a model activity (a turn's message, a compaction's summary, a
// prompt hook's question) with a "chat {model}" span carrying the request's model,
// the response's model and id, the token counts and the stop reason; a failed
// call's span has Error status and error.type (the activity's error type,
// ModelUnavailable for example). As for tools, the tracer is the one behind the
// SDK's RunActivity span.
func observedModel[Req, Reply any](fn func(context.Context, Req) (Reply, error),
	request func(Req) conversation.ModelRequest, reply func(Reply) modelOutcome) func(context.Context, Req) (Reply, error) {
	return func(ctx context.Context, req Req) (Reply, error) {
		mr := request(req)
		tracer := trace.SpanFromContext(ctx).TracerProvider().Tracer(instrumentationName)
		ctx, span := tracer.Start(ctx, "chat "+mr.Model, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
			contract.AttrOperation.String("chat"), AttrProvider.String(providerAnthropic), AttrSystem.String(providerAnthropic),
			AttrRequestModel.String(mr.Model), AttrMaxTokens.Int(mr.MaxTokens),
			contract.AttrSessionID.String(mr.SessionID)))
		defer span.End()
		if mr.Seq > 0 { // the stored message's number; a prompt hook's answer is not stored
			span.SetAttributes(AttrSeq.Int(mr.Seq))
		}
		call := &modelCall{}
		out, err := fn(context.WithValue(ctx, modelCallKey{}, call), req)
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
			span.SetAttributes(contract.AttrErrorType.String(errorType(err)))
			return out, err
		}
		o := reply(out)
		if o.stop != "" {
			span.SetAttributes(AttrFinishReasons.StringSlice([]string{o.stop}))
		}
		if o.failure != "" {
			span.SetStatus(codes.Error, o.failure)
			span.SetAttributes(contract.AttrErrorType.String(o.failType))
		}
		usage := o.usage
		if usage == (conversation.Usage{}) {
			usage = call.usage
		}
		if !call.answered {
			if o.failure == "" { // answered from the store, not asked again
				span.SetAttributes(AttrModelReused.Bool(true))
			}
			return out, nil
		}
		span.SetAttributes(AttrResponseModel.String(call.model), AttrResponseID.String(call.id),
			AttrInputTokens.Int64(usage.InputTokens+usage.CacheReadInputTokens+usage.CacheCreationInputTokens),
			AttrOutputTokens.Int64(usage.OutputTokens),
			AttrCacheReadTokens.Int64(usage.CacheReadInputTokens), AttrCacheCreationTokens.Int64(usage.CacheCreationInputTokens))
		return out, nil
	}
}

// errorType is a failure's error.type: the application error's type when it has
// one (ModelRejected, ConversationStore), else what kind of error it is.
func errorType(err error) string {
	var app *temporal.ApplicationError
	switch {
	case errors.As(err, &app) && app.Type() != "":
		return app.Type()
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	return "_OTHER"
}

// observedCallModel and observedCompact are the agent's model activities with their
// spans.
func (a *Agent) observedCallModel() func(context.Context, conversation.ModelRequest) (conversation.ModelReply, error) {
	return observedModel(a.CallModel,
		func(r conversation.ModelRequest) conversation.ModelRequest { return r },
		func(r conversation.ModelReply) modelOutcome { return modelOutcome{usage: r.Usage, stop: r.StopReason} })
}

func (a *Agent) observedCompact() func(context.Context, contract.CompactRequest) (contract.CompactReply, error) {
	return observedModel(a.CompactConversation,
		func(r contract.CompactRequest) conversation.ModelRequest { return r.Model },
		func(r contract.CompactReply) modelOutcome { return modelOutcome{usage: r.Usage} })
}

// observedPromptHook is the prompt hook activity with its span. A refused or
// timed-out question is the hook's result (non-blocking, as in Claude Code), not
// an activity error; its span still says it failed.
func (a *Agent) observedPromptHook() func(context.Context, hooks.PromptInvocation) (hooks.PromptRun, error) {
	return observedModel(a.RunPromptHook,
		func(inv hooks.PromptInvocation) conversation.ModelRequest {
			return conversation.ModelRequest{Model: promptHookModel(inv), MaxTokens: promptHookMaxTokens, SessionID: inv.SessionID}
		},
		func(r hooks.PromptRun) modelOutcome {
			switch {
			case r.TimedOut:
				return modelOutcome{failure: "the prompt hook's model did not answer in time", failType: "timeout"}
			case r.Failure == ErrNoModel:
				return modelOutcome{failure: r.Failure, failType: contract.ErrModelNotConfigured}
			case r.Failure != "":
				return modelOutcome{failure: r.Failure, failType: contract.ErrModelRejected}
			}
			return modelOutcome{}
		})
}
