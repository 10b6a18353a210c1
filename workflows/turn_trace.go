package workflows

import (
	"context"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/tool"
)

// traceInstrumentation names the tracer of the spans the workflow itself records.
const traceInstrumentation = "github.com/toolpipe/toolpipe/workflows"

// traceRefusedCall gives a call that never became an activity (an unknown tool, an
// input that failed validation) its execute_tool span, with Error status and the
// result it got, so that a trace lists every call of the turn. The span is a child
// of the turn's RunWorkflow span when the worker traces (the SDK's interceptor puts
// it in the workflow context) and nothing otherwise. It is recorded only when the
// workflow is not replaying, as the SDK records its own workflow spans: it is no
// command, and a replay must not record the call twice.
func traceRefusedCall(ctx workflow.Context, b tool.Block, r tool.Result, errType string) {
	if workflow.IsReplaying(ctx) {
		return
	}
	parent, ok := temporalotel.SpanFromWorkflowContext(ctx)
	if !ok || !parent.SpanContext().IsValid() {
		return
	}
	at := trace.WithTimestamp(workflow.Now(ctx))
	_, span := parent.TracerProvider().Tracer(traceInstrumentation).Start(
		trace.ContextWithSpan(context.Background(), parent), "execute_tool "+b.Name, at,
		trace.WithAttributes(
			contract.AttrOperation.String("execute_tool"), contract.AttrToolName.String(b.Name),
			contract.AttrToolCallID.String(b.ID), contract.AttrSummary.String(tool.Describe(b)),
			contract.AttrIsError.Bool(true), contract.AttrErrorType.String(errType),
			contract.AttrErrorLine.String(firstResultLine(r.Content)),
		))
	span.SetStatus(codes.Error, firstResultLine(r.Content))
	span.End(trace.WithTimestamp(workflow.Now(ctx)))
}

// Error types of calls refused before they ran.
const (
	refusedUnknownTool = "unknown_tool"
	refusedInput       = "invalid_input"
)

// firstResultLine keeps a span attribute short.
func firstResultLine(s string) string {
	for i, r := range s {
		if r == '\n' || i >= 200 {
			return s[:i]
		}
	}
	return s
}
