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
// process-wide (NewPlugin adds the Options' Tools to it) and every worker polling a
// task queue must have the same tools with the same contract. IsConcurrencySafe runs
// in workflow code and must be a pure function of its input. A turn records, the
// first time a call names a tool that is neither built in nor an MCP tool, whether
// its worker knew it: a worker that lacks a tool the turn recorded fails the workflow
// task with a message naming the tool (Temporal retries it, and a worker that has the
// tool continues), and a name recorded as unknown stays unknown.
//
// # Workers and clients
//
// NewPlugin is the one set-up of a worker that runs toolpipe, as a plugin of the
// Temporal SDK's worker (worker.Options.Plugins): the worker options the workflows
// need, the workflows and activities (built-in tools, custom tools, hooks, MCP, the
// model), the lost-worker records and the sweep of dead workers' calls, and the
// shutdown that reports the calls it stopped. cmd/starter's in-process workers and
// cmd/worker are built the same way. The worker runs on the program's own task
// queue, beside its own workflows.
//
// Client starts and drives Turns and Sessions on that queue, and owns what they
// are started with: the turn's workflow id (TurnID) and the rule that refuses
// another message reusing its ids (IsTurnCollision), the settings (Settings), the
// files the session read before, the working directory's MCP servers and the
// search attributes. `starter run` and `starter agent` are this client. A turn's
// results reach the client once, as the turn yields them (Turn.Follow); a closed
// turn's or session's state is read from its history, without a worker.
//
// Errors are classified by predicates (IsInvalidInput, IsWorkerLost,
// IsDuplicateToolUseID, ...), never by their text. The importing program links the
// Temporal SDK, not the Temporal server: the embedded development server lives in
// package connect, which cmd/starter uses.
//
// Tracing and metrics follow the Temporal client: build its options with
// worker.NewTelemetry's ClientOptions and the tool spans appear under the SDK's.
package toolpipe
