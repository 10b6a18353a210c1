package main

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolpipe/toolpipe/contract"
)

// traceTurn starts the span of `starter run`: the turn's start, every update the
// command sends it (AddBlocks, CloseIntake, Collect) and so its tools land in one
// trace (worker.Telemetry.StartTrace). A no-op unless tracing is on.
func (e *env) traceTurn(ctx context.Context) (context.Context, func()) {
	ctx, span := e.tel.StartTrace(ctx, "starter run", contract.AttrSessionID.String(e.cfg.Session))
	return ctx, func() { span.End() }
}

// traceSession starts the span of `starter agent`, named as the GenAI conventions
// name an agent's invocation; the session workflow, its model calls and its turns
// are below it.
func (e *env) traceSession(ctx context.Context) (context.Context, func()) {
	ctx, span := e.tel.StartTrace(ctx, "invoke_agent toolpipe",
		contract.AttrOperation.String("invoke_agent"), attribute.String("gen_ai.agent.name", "toolpipe"),
		attribute.String("gen_ai.conversation.id", e.cfg.Session), contract.AttrSessionID.String(e.cfg.Session))
	return ctx, func() { span.End() }
}

// traceWorkflowID names the workflow a command's trace is about, once it is known.
func traceWorkflowID(ctx context.Context, id string) {
	trace.SpanFromContext(ctx).SetAttributes(attribute.String("temporalWorkflowID", id))
}
