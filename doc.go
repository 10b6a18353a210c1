// Package toolpipe is the Go API of toolpipe, for programs that build an agent on it:
// tools of their own beside the built-in ones, toolpipe's workflows and activities in
// their own Temporal worker, and a typed client for Turns and Sessions.
//
// # Tools
//
// A tool is a ToolSpec made into a Tool by NewTool, which checks it at once (name,
// description, JSON Schema, threshold, interrupt behaviour): a mistake is an error
// when the program starts, not when the model first calls the tool. A custom tool
// goes through what a built-in one does: it is offered to the model in sessions, its
// input is validated against its schema, its calls are scheduled by its
// IsConcurrencySafe (safe calls in parallel, others alone), hooks and permission
// rules match its name, large results are persisted and previewed, each call is an
// activity named after the tool with a span, and safe calls are retried after a lost
// worker while others run at most once.
//
// # Determinism
//
// The Turn workflow consults the tool registry while it schedules, so the registry is
// process-wide (Register adds to it) and every worker polling a task queue must
// register the same tools with the same contract. IsConcurrencySafe runs in workflow
// code and must be a pure function of its input. A turn records, the first time a
// call names a tool that is neither built in nor an MCP tool, whether its worker knew
// it: a worker that lacks a tool the turn recorded fails the workflow task with a
// message naming the tool (Temporal retries it, and a worker that has the tool
// continues), and a name recorded as unknown stays unknown.
//
// # Workers and clients
//
// Register puts the workflows and activities on a worker the program created, on
// its own task queue, beside its own workflows; WorkerOptions adds the settings
// toolpipe needs to the program's worker options. Client starts and drives Turns and
// Sessions on that queue. Tracing and metrics follow the Temporal client: build its
// options with worker.NewTelemetry's ClientOptions and the tool spans appear under
// the SDK's.
package toolpipe
