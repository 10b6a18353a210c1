package contract

// The workflow types clients start (Prefix, names.go).
const (
	// TurnWorkflowName is the workflow type of one assistant turn.
	TurnWorkflowName = "toolpipe.Turn"
	// SessionWorkflowName is the workflow type of an agent session (the query loop).
	SessionWorkflowName = "toolpipe.Session"
)

// A Turn's updates, signals and queries.
const (
	// AddBlocksUpdate hands streamed tool_use blocks to the running turn.
	AddBlocksUpdate = "AddBlocks"
	// CloseIntakeUpdate says the assistant message has ended: no more blocks come.
	CloseIntakeUpdate = "CloseIntake"
	// CollectUpdate returns the results yielded since a cursor, waiting for some.
	CollectUpdate = "Collect"
	// InterruptSignal is the user's new message arriving during the turn (DESIGN §3.7),
	// or an interrupt without one; its payload, optional, is an InterruptRequest.
	InterruptSignal = "Interrupt"
	// StateQuery returns every tool's state and whether the turn is interruptible.
	StateQuery = "State"
	// ApproveUpdate lets a call that waits for approval run.
	ApproveUpdate = "Approve"
	// DenyUpdate refuses a call that waits for approval; the model is told why.
	DenyUpdate = "Deny"
	// BackgroundSignal carries a turn's BackgroundAsk to its parent session, which owns
	// the background tasks: they outlive the turn that started them.
	BackgroundSignal = "background-task"
)

// A Session's updates, signals and queries.
const (
	// SendUpdate adds a user message; it interrupts the running turn (DESIGN §3.7) and
	// is sent with the next model call.
	SendUpdate = "Send"
	// SessionInterruptSignal interrupts the running turn without a message.
	SessionInterruptSignal = "Interrupt"
	// SessionStateQuery returns where the session stands.
	SessionStateQuery = "SessionState"
	// EventsQuery returns what happened since a cursor, for people watching.
	EventsQuery = "Events"
	// StartTaskUpdate hands the session a Task block as soon as it has streamed, so
	// that the sub-agent starts before the model's message ends. The model activity
	// sends it; a block the session already has is accepted again.
	StartTaskUpdate = "StartTask"
	// OpenTurnUpdate has the session start the Turn of the model call now streaming,
	// which the model activity sends before it hands over the first tool_use block:
	// a reply without tool calls starts no Turn (session_turn.go).
	OpenTurnUpdate = "OpenTurn"
	// CompactUpdate asks a running session to compact before its next model call
	// (`starter agent compact`).
	CompactUpdate = "Compact"
	// ConfigureUpdate changes the permission mode of the turns to come and the
	// model of the calls to come (ConfigureRequest); the running turn and model
	// call keep theirs. Continue-as-new carries the change.
	ConfigureUpdate = "Configure"
	// InterruptPromptSignal interrupts the running turn (as SessionInterruptSignal)
	// and ends the prompt once the turn has its results, instead of sending them
	// to the model: the Claude Agent SDK's interrupt. The results are stored, so
	// the next prompt continues a whole conversation.
	InterruptPromptSignal = "InterruptPrompt"
)

// Error types of the Turn and Session workflows' failures and of their rejected
// updates. Clients classify errors on these (temporal.ApplicationError's Type),
// never on their text.
const (
	// ErrBadTurnInput: the start input cannot be run; retrying cannot help.
	ErrBadTurnInput = "BadTurnInput"
	// ErrBadSessionInput: the start input cannot be run; retrying cannot help.
	ErrBadSessionInput = "BadSessionInput"
	// ErrDuplicateToolUseID: a block's id is one the turn already tracks (or repeats
	// within the update). A client re-sending blocks after a crash expects it.
	ErrDuplicateToolUseID = "DuplicateToolUseID"
	// ErrMalformedBlock: a block without an id or a name, with an id that cannot
	// name a file, or with an input that is not JSON.
	ErrMalformedBlock = "MalformedBlock"
	// ErrTooManyTools: the turn would hold more than MaxToolsPerTurn calls.
	ErrTooManyTools = "TooManyTools"
	// ErrIntakeClosed: AddBlocks after CloseIntake.
	ErrIntakeClosed = "IntakeClosed"
	// ErrBadCursor: Collect from a cursor past what was yielded.
	ErrBadCursor = "BadCursor"
	// ErrNotAwaitingApproval: Approve or Deny for a call that is not waiting.
	ErrNotAwaitingApproval = "NotAwaitingApproval"
)
