package contract

import "strings"

// Prefix starts the name of every workflow and activity type toolpipe registers
// on a worker, so that a program's own ("Read", "Session", "CallModel") can live
// on the same worker (toolpipe.NewPlugin) without colliding with them. Workflows
// from before the prefix (no marker of change prefixed-names in their history)
// schedule the names without it (Unprefixed); a worker with LegacyNames registers
// those too, for the turns and sessions an older toolpipe started.
const Prefix = "toolpipe."

// ToolActivity is the activity type of a tool's calls: the tool's name, prefixed.
func ToolActivity(tool string) string { return Prefix + tool }

// Unprefixed is name without Prefix: the name an older toolpipe used.
func Unprefixed(name string) string { return strings.TrimPrefix(name, Prefix) }

// The activity types the workflows schedule by name.
const (
	// ModelActivityName streams one assistant message from the model.
	ModelActivityName = "toolpipe.CallModel"
	// AppendActivityName stores budgeted messages, their records and originals.
	AppendActivityName = "toolpipe.AppendMessages"
	// OpenSessionActivityName opens (or resumes) a session's store.
	OpenSessionActivityName = "toolpipe.OpenSession"
	// RecordTurnActivityName adds a model call's mark to its session's history.
	RecordTurnActivityName = "toolpipe.RecordTurn"
	// RecordWorkspaceActivityName adds a state to a session's workspace timeline
	// (a checkpoint after a turn, or the two of a rewind of the code).
	RecordWorkspaceActivityName = "toolpipe.RecordWorkspace"
	// RewindSessionActivityName moves a session's head back to a turn (or forward
	// to where it was before its rewinds) and records who did it and when.
	RewindSessionActivityName = "toolpipe.RewindSession"
	// ForkSessionActivityName starts a session's store from another's conversation
	// at a turn.
	ForkSessionActivityName = "toolpipe.ForkSession"
	// CompactActivityName writes the summary a session continues from when its
	// conversation nears the model's context window.
	CompactActivityName = "toolpipe.CompactConversation"
	// HookActivityName is the activity type of one hook command (RunHook).
	HookActivityName = "toolpipe.RunHook"
	// PromptHookActivityName asks the model for a "prompt" hook's verdict.
	PromptHookActivityName = "toolpipe.RunPromptHook"
	// ResolvePathsActivityName resolves the paths a file tool call names.
	ResolvePathsActivityName = "toolpipe.ResolvePaths"
	// TranscriptActivityName appends a turn's lines to the session's transcript.
	TranscriptActivityName = "toolpipe.AppendTranscript"
	// ListMCPToolsActivityName lists the MCP servers' tools, once per turn or session.
	ListMCPToolsActivityName = "toolpipe.ListMCPTools"
	// MCPCallActivityName is the one activity type of every MCP tool call, whose
	// input names the tool (mcp__SERVER__TOOL).
	MCPCallActivityName = "toolpipe.MCPCall"
	// BashBackgroundActivityName runs a Bash command started with run_in_background:
	// a session's background task (workflows/session_background.go).
	BashBackgroundActivityName = "toolpipe.BashBackground"
	// RefusedCallActivityName is an activity that records, in the turn's
	// history and the Web UI's timeline, a call that never became a tool activity
	// (an unknown tool, an input that failed validation): it does nothing and fails
	// with the call's error, under the call's summary.
	RefusedCallActivityName = "toolpipe.RefusedCall"
)

// Error types of tool activity failures (not tool errors, which are results).
const (
	// ErrBadCall: the call cannot run (undecodable input); a retry cannot help.
	ErrBadCall = "BadToolCall"
	// ErrInfrastructure: the worker could not run the tool (disk, process start).
	ErrInfrastructure = "ToolInfrastructure"
	// ErrBadMCPConfig: the working directory's .mcp.json is invalid; retrying cannot
	// help until it is fixed.
	ErrBadMCPConfig = "BadMCPConfig"
	// ErrToolError: the call ran and its result is an error (Bash's Exit code 1, a
	// missing file). It is a result, not a failure of the tool's machinery: the
	// activity fails with it (benign, never retried) only when the turn asked
	// (tool.Call.FailOnError), so that the Web UI draws the call as failed; the
	// tool.Output is its first detail, and the turn reads the result from it.
	ErrToolError = "ToolError"
	// ErrRefusedCall: the failure a RefusedCall record ends with.
	ErrRefusedCall = "RefusedCall"
)

// Error types of the agent activities' failures.
const (
	// ErrModelUnavailable: the model API is overloaded, rate limited, failing (5xx)
	// or unreachable; Temporal's retry policy retries it.
	ErrModelUnavailable = "ModelUnavailable"
	// ErrModelRejected: the model API refused the request (a 4xx other than 429);
	// sending it again cannot help.
	ErrModelRejected = "ModelRejected"
	// ErrPromptTooLong: the model API refused the request as longer than the
	// model's context window; the session compacts and tries once more.
	ErrPromptTooLong = "PromptTooLong"
	// ErrModelNotConfigured: the worker has no API key.
	ErrModelNotConfigured = "ModelNotConfigured"
	// ErrConversationStore: the conversation store could not be read or written.
	ErrConversationStore = "ConversationStore"
	// ErrBadRewind: a rewind or a fork names a point the session does not have (a
	// turn past its end, LATEST of a session never rewound, a message or checkpoint
	// missing from the store); nothing was changed.
	ErrBadRewind = "BadRewind"
	// ErrSessionExists: a fork was asked onto a session id that has a conversation.
	ErrSessionExists = "SessionExists"
	// ErrSessionNotInStore: an object the session's history refers to (a message,
	// its records) is not in this worker's blob store: a wrong or empty blob-url.
	// Not retried; the message names the store and the session.
	ErrSessionNotInStore = "SessionNotInStore"
	// ErrTurnIntake: a tool_use block could not be handed to the running turn.
	ErrTurnIntake = "TurnIntake"
)

// Error types of a tool attempt that its worker's end stopped (package worker
// reports them): both count as a lost worker, like a heartbeat timeout, and the
// turn's lost-worker rule applies (DESIGN §6).
const (
	// ErrWorkerLost: another worker found the attempt's worker process dead (its
	// lock in the state directory was free) and failed the attempt at once.
	ErrWorkerLost = "WorkerLost"
	// ErrWorkerShutdown: the worker shut down gracefully while the tool ran and
	// stopped it when its grace ran out.
	ErrWorkerShutdown = "WorkerShutdown"
)
