package contract

import "go.opentelemetry.io/otel/attribute"

// Span attributes of a tool call. The gen_ai.* names follow OpenTelemetry's
// semantic conventions for generative AI tool execution, so tracing back ends that
// know them display tool calls as such; the toolpipe.* ones are ours.
const (
	AttrOperation      = attribute.Key("gen_ai.operation.name")
	AttrToolName       = attribute.Key("gen_ai.tool.name")
	AttrToolCallID     = attribute.Key("gen_ai.tool.call.id")
	AttrSessionID      = attribute.Key("toolpipe.session.id")
	AttrConcurrentSafe = attribute.Key("toolpipe.tool.concurrency_safe")
	AttrAttempt        = attribute.Key("toolpipe.tool.attempt")
	AttrIsError        = attribute.Key("toolpipe.tool.is_error")
	AttrResultSize     = attribute.Key("toolpipe.tool.result_size")
	AttrOutputSize     = attribute.Key("toolpipe.tool.output_size")
	AttrPersisted      = attribute.Key("toolpipe.tool.persisted")
	AttrErrorLine      = attribute.Key("toolpipe.tool.error")
	// AttrSummary is the call as people read it: the tool and its main argument,
	// shortened ("Bash(npm test)"), so a trace says what each call did.
	AttrSummary = attribute.Key("toolpipe.tool.summary")
	// AttrErrorType and AttrExitCode are OpenTelemetry's general names: error.type
	// on every failed operation, process.exit.code for a process that ran.
	AttrErrorType      = attribute.Key("error.type")
	AttrExitCode       = attribute.Key("process.exit.code")
	AttrHookEvent      = attribute.Key("toolpipe.hook.event")
	AttrHookCommand    = attribute.Key("toolpipe.hook.command")
	AttrHookExitCode   = attribute.Key("toolpipe.hook.exit_code")
	AttrHookTimedOut   = attribute.Key("toolpipe.hook.timed_out")
	AttrHookDurationMs = attribute.Key("toolpipe.hook.duration_ms")
)
