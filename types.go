package toolpipe

import (
	"encoding/json"
	"fmt"
	"time"
)

// The types of this file are what a program reads of turns and sessions. Their
// JSON is the wire format other languages read (docs/CROSS-LANGUAGE.md); the
// workflows' own types are converted to them (convert.go), so that the Go API
// stays as it is when the implementation moves.

// Block is one tool_use content block of an assistant message (Anthropic Messages
// format): the call's id, the tool's name and its input.
type Block struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
	// InputBytes, for a block whose input a client dropped unread because it was
	// over every tool's limit, is its size: the call is answered with its tool's
	// size error, as an input over the tool's own limit is (and dropped before it
	// is stored).
	InputBytes int `json:"input_bytes,omitempty"`
}

// ToolResult is one tool_result content block of the user message that answers
// a turn: the call's id, the model-facing content, and whether it is an error.
type ToolResult struct {
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content"`
	IsError   bool   `json:"is_error"`
}

// Notice is something for the user, not the model: a hook's systemMessage, a
// hook that failed without blocking, a slow hook phase, an MCP server that
// could not be reached. ToolUseID is empty for a notice about the turn.
type Notice struct {
	ToolUseID string `json:"tool_use_id"`
	Text      string `json:"text"`
}

// TurnResult is how a turn ended: every tool_result in arrival order (the user
// message that answers the assistant message), the files the session has read
// since (an Edit may follow a Read of an earlier turn), and what is for the user.
type TurnResult struct {
	Results []ToolResult `json:"results"`
	// ReadFiles are the files read or written in the session as far as this turn
	// knows them, sorted.
	ReadFiles []string `json:"read_files,omitempty"`
	// Stop says a hook returned continue: false: the session should end after this
	// turn; StopReason says why.
	Stop       bool     `json:"stop,omitempty"`
	StopReason string   `json:"stop_reason,omitempty"`
	Notices    []Notice `json:"notices,omitempty"`
}

// CallStatus is where one call of a turn stands.
type CallStatus string

// The statuses of a call. A call goes from queued to executing (or to
// awaiting approval and back) to completed, and is yielded once every call before
// it was: its result then belongs to the message, in arrival order.
const (
	StatusQueued           CallStatus = "queued"
	StatusExecuting        CallStatus = "executing"
	StatusAwaitingApproval CallStatus = "awaiting_approval"
	StatusCompleted        CallStatus = "completed"
	StatusYielded          CallStatus = "yielded"
	// StatusUnfinished is a call of a closed turn that has no result: the turn
	// failed, was terminated or timed out before the call ended.
	StatusUnfinished CallStatus = "unfinished"
)

// Interrupt is what a user's new message does to a running call of a tool.
type Interrupt string

// The interrupt behaviours: InterruptCancel stops the call (its context is
// cancelled), InterruptBlock lets it finish while the message waits.
const (
	InterruptCancel Interrupt = "cancel"
	InterruptBlock  Interrupt = "block"
)

// ToolState is one call of a turn as its state shows it.
type ToolState struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Description is the call as people read it: Bash(git status), Read(main.go).
	Description string     `json:"description"`
	Status      CallStatus `json:"status"`
	// Safe says the call may run beside other safe calls (and is retried after a
	// lost worker).
	Safe      bool      `json:"safe"`
	Interrupt Interrupt `json:"interrupt"`
	IsError   bool      `json:"is_error,omitempty"`
}

// PendingApproval is a call that waits for a person: Turn.Approve or Turn.Deny
// answers it before Deadline, after which it is denied.
type PendingApproval struct {
	ToolUseID   string `json:"tool_use_id"`
	Tool        string `json:"tool"`
	Description string `json:"description"`
	// Reason says why approval is needed (the rule, the mode or the hook).
	Reason string `json:"reason"`
	// Input is the call's input, for whoever answers (the Agent SDK's can_use_tool).
	Input    json.RawMessage `json:"input,omitempty"`
	Since    time.Time       `json:"since"`
	Deadline time.Time       `json:"deadline"`
}

// TurnState is where a turn stands: each call, whether an interrupt would stop
// anything now, and what waits for a person.
type TurnState struct {
	Tools []ToolState `json:"tools"`
	// Interruptible says every running call would stop on an interrupt.
	Interruptible bool `json:"interruptible"`
	// IntakeClosed says the assistant message has ended: no more calls come.
	IntakeClosed bool `json:"intake_closed"`
	// Errored says a Bash call failed and cancelled its siblings.
	Errored bool `json:"errored"`
	// Pending are the calls waiting for approval, in arrival order.
	Pending []PendingApproval `json:"pending,omitempty"`
	Notices []Notice          `json:"notices,omitempty"`
}

// Usage counts a model's tokens: input, output and prompt cache writes and reads.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens,omitempty"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens,omitempty"`
}

// Context is the tokens of the call's context window: input, cache writes and
// cache reads.
func (u Usage) Context() int64 {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// String is the usage as `starter agent` prints it.
func (u Usage) String() string {
	return fmt.Sprintf("%d in, %d cache write, %d cache read, %d out",
		u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens, u.OutputTokens)
}

// SessionPhase is what a session is doing.
type SessionPhase string

// The phases of a session.
const (
	// PhaseIdle: between prompts, waiting for a user message.
	PhaseIdle SessionPhase = "idle"
	// PhaseModel: a model call streams.
	PhaseModel SessionPhase = "model"
	// PhaseTools: the model's tool calls run in a Turn.
	PhaseTools SessionPhase = "tools"
	// PhaseBackground: the model has finished and background tasks still run; the
	// first to end wakes it.
	PhaseBackground SessionPhase = "background"
	// PhaseCompacting: the conversation is being summarised to fit the window.
	PhaseCompacting SessionPhase = "compacting"
	// PhaseDone: the session has ended.
	PhaseDone SessionPhase = "done"
	// PhaseSleeping: the model ended its turn with a ScheduleWakeup pending; the
	// session sleeps on a timer until it fires.
	PhaseSleeping SessionPhase = "sleeping"
)

// BackgroundTask is a background shell of a session (a Bash call with
// run_in_background), running or ended.
type BackgroundTask struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	Status      string `json:"status"`
	Description string `json:"description"`
	Command     string `json:"command"`
}

// SessionState is where a session stands.
type SessionState struct {
	SessionID string       `json:"session_id"`
	Phase     SessionPhase `json:"phase"`
	// TurnID is the running Turn workflow, if any, and TurnNumber the number its
	// id ends in (turn-N).
	TurnID     string `json:"turn_id,omitempty"`
	TurnNumber int    `json:"turn_number,omitempty"`
	// Turns counts the model calls; a call whose reply has tool calls runs them in
	// a Turn, and LastTurn is the number of the session's last one.
	Turns    int `json:"turns"`
	LastTurn int `json:"last_turn,omitempty"`
	// Messages and Bytes size the conversation.
	Messages int `json:"messages"`
	Bytes    int `json:"bytes"`
	// PendingUser counts the user messages waiting for the next model call.
	PendingUser int `json:"pending_user"`
	// Seen and Replaced are the conversation budget's: results judged, and
	// results replaced by a preview.
	Seen     int `json:"seen"`
	Replaced int `json:"replaced"`
	// Runs counts the continue-as-new runs before this one.
	Runs  int   `json:"runs"`
	Usage Usage `json:"usage"`
	// StopReason is why the last prompt ended.
	StopReason string `json:"stop_reason,omitempty"`
	// LastError is the model failure that ended the last prompt, or how a closed
	// session's workflow ended when it did not complete.
	LastError string `json:"last_error,omitempty"`
	// LastUsage is the last model call's; Usage sums them all.
	LastUsage Usage `json:"last_usage"`
	// Cost estimates what the calls cost, in US dollars, at Model's price.
	Cost  float64 `json:"cost"`
	Model string  `json:"model,omitempty"`
	// ContextWindow is the model's window in tokens.
	ContextWindow int `json:"context_window,omitempty"`
	// Compactions counts the times the conversation was replaced by a summary.
	Compactions     int              `json:"compactions,omitempty"`
	BackgroundTasks []BackgroundTask `json:"background_tasks,omitempty"`
	// Placement is the host the session's tools run on, on a fleet (Place); nil
	// otherwise.
	Placement *Placement `json:"placement,omitempty"`
	// Wakeup is the pending ScheduleWakeup, if any; Questions the AskUserQuestion
	// calls waiting for a person (Session.Answer answers them).
	Wakeup    *Wakeup           `json:"wakeup,omitempty"`
	Questions []PendingQuestion `json:"questions,omitempty"`
	// Tasks is the session's task list (TaskCreate, TaskUpdate), in creation order.
	Tasks []Task `json:"tasks,omitempty"`
	// PlanMode says the model entered plan mode (EnterPlanMode) and no plan was
	// approved since: calls that could change something are refused.
	PlanMode bool `json:"plan_mode,omitempty"`
	// Checkpoints are the working directory's checkpoints, oldest first: which turn
	// produced which (SessionOptions.Checkpoints, or a placed session).
	Checkpoints []TurnCheckpoint `json:"checkpoints,omitempty"`
}

// Task is one task of a session's task list, as Claude Code's TaskGet shows it.
type Task struct {
	ID          string `json:"id"`
	Subject     string `json:"subject"`
	Description string `json:"description"`
	ActiveForm  string `json:"activeForm,omitempty"`
	// Status is pending, in_progress or completed.
	Status string `json:"status"`
	Owner  string `json:"owner,omitempty"`
	// Blocks are the tasks waiting for this one; BlockedBy those it waits for.
	Blocks    []string `json:"blocks,omitempty"`
	BlockedBy []string `json:"blockedBy,omitempty"`
}

// TurnCheckpoint is the checkpoint of a session's working directory taken after a
// turn (DESIGN §11).
type TurnCheckpoint struct {
	// Turn is the Turn (turn-N) the checkpoint follows; 0 before the first.
	Turn int `json:"turn"`
	// Message is the assistant message whose calls ran; 0 for the checkpoint taken
	// when a run of the session started.
	Message int `json:"message"`
	// Checkpoint is its id (64 hex digits).
	Checkpoint string `json:"checkpoint"`
	// Files it holds, and paths the turn Changed.
	Files   int `json:"files"`
	Changed int `json:"changed"`
	// Run is the workflow run it was taken in.
	Run string `json:"run"`
}

// Placement is where a placed session's tools run: the host, its own task queue,
// and the placement's generation.
type Placement struct {
	Host       string `json:"host"`
	Queue      string `json:"queue"`
	Generation int    `json:"generation"`
}

// EventKind says what a SessionEvent is.
type EventKind string

// The kinds of session events.
const (
	// EventUser: a user message (Text).
	EventUser EventKind = "user"
	// EventAssistant: the assistant's text.
	EventAssistant EventKind = "assistant"
	// EventToolUse: a tool call (Text describes it, ToolUseID names it).
	EventToolUse EventKind = "tool_use"
	// EventToolResult: a call's result (Text; IsError).
	EventToolResult EventKind = "tool_result"
	// EventStop: the prompt ended (Text is the stop reason).
	EventStop EventKind = "stop"
	// EventModel: a model call starts (Text is the model).
	EventModel EventKind = "model"
	// EventNotice: something the user should know that is not the conversation.
	EventNotice EventKind = "notice"
	// EventError: a model call failed for good and the prompt ended (Text is the
	// API's message).
	EventError EventKind = "error"
	// EventCompact: the conversation was replaced by a summary (Text says how).
	EventCompact EventKind = "compact"
	// EventWakeup: the session sleeps until a ScheduleWakeup fires (Text says
	// until when and why; Noop marks a quiet round).
	EventWakeup EventKind = "wakeup"
	// EventQuestion: an AskUserQuestion call waits for a person (Text lists the
	// questions and says how to answer).
	EventQuestion EventKind = "question"
)

// SessionEvent is one thing that happened in a session, in order.
type SessionEvent struct {
	Kind      EventKind `json:"kind"`
	Text      string    `json:"text,omitempty"`
	ToolUseID string    `json:"tool_use_id,omitempty"`
	IsError   bool      `json:"is_error,omitempty"`
	// Noop marks an EventWakeup of a round that found nothing to report.
	Noop bool `json:"noop,omitempty"`
	// Turn is the model call it belongs to.
	Turn int `json:"turn"`
	// TurnID is the Turn workflow running when it happened, if any.
	TurnID string `json:"turn_id,omitempty"`
}

// SessionResult is how a session's prompt ended.
type SessionResult struct {
	SessionID string `json:"session_id"`
	// StopReason is why: the model's stop reason (end_turn), max_turns,
	// max_budget, model_error, or a hook's stop.
	StopReason string `json:"stop_reason"`
	// HookReason is the stopReason a hook gave with continue: false.
	HookReason string `json:"hook_reason,omitempty"`
	// Text is the last assistant message's text.
	Text string `json:"text"`
	// Turns counts the model calls, LastTurn numbers the session's last Turn.
	Turns    int   `json:"turns"`
	LastTurn int   `json:"last_turn,omitempty"`
	Usage    Usage `json:"usage"`
	// Error is the model's failure when StopReason is model_error.
	Error string `json:"error,omitempty"`
	// Cost is the estimated cost of the session's model calls, in US dollars.
	Cost float64 `json:"cost,omitempty"`
	// Messages and Bytes size the conversation, which stays in the state
	// directory.
	Messages int `json:"messages"`
	Bytes    int `json:"bytes"`
}

// The stop reasons of a session's prompt that are toolpipe's own (SessionResult's
// StopReason; any other is the model's, such as end_turn).
const (
	// StopMaxTurns: the session made its allowed model calls.
	StopMaxTurns = "max_turns"
	// StopMaxBudget: the estimated cost reached the budget.
	StopMaxBudget = "max_budget"
	// StopHook: a hook returned continue: false (HookReason says why).
	StopHook = "hook_stop"
	// StopModelError: a model call failed for good (Error says how).
	StopModelError = "model_error"
)
