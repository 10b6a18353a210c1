package workflows

import (
	"encoding/json"
	"time"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/modelinfo"
	"github.com/toolpipe/toolpipe/tool"
)

// Stop reasons of a session, besides the model's own (end_turn, max_tokens, ...).
const (
	// StopMaxTurns: the session made its last allowed model call.
	StopMaxTurns = "max_turns"
	// StopHook: a hook answered continue: false.
	StopHook = "hook_stop"
	// StopModelError: a model call failed for good (auth, a bad request, retries
	// used up); the result's Error is the API's message. The conversation is kept:
	// the next prompt continues it.
	StopModelError = "model_error"
	// StopMaxBudget: the session's estimated cost reached MaxBudgetUSD.
	StopMaxBudget = "max_budget"
)

// DefaultModel is the model a session uses unless told otherwise.
const DefaultModel = "claude-sonnet-4-5"

// SessionInput starts a Session.
type SessionInput struct {
	// SessionID names the conversation in the store; an existing one is resumed.
	SessionID string `json:"session_id"`
	// Prompt is the first user message (none when resuming with no new message).
	Prompt  string         `json:"prompt,omitempty"`
	Workdir string         `json:"workdir"`
	Model   ModelOptions   `json:"model"`
	Options SessionOptions `json:"options"`
	// Settings are the hooks and permissions every turn (and sub-agent) enforces.
	Settings *TurnSettings `json:"settings,omitempty"`
	// SkillDirs are the directories whose skills (NAME/SKILL.md) the model is
	// offered, in precedence order: ~/.claude/skills, then the workspace's
	// .claude/skills when it is trusted (the starter decides; session_skills.go).
	SkillDirs []string `json:"skill_dirs,omitempty"`
	// MCP says the working directory has a .mcp.json: each run lists its servers'
	// tools once, offers them to the model and hands them to every turn.
	MCP bool `json:"mcp,omitempty"`
	// SearchAttributes says the namespace has ToolpipeSessionID and ToolpipeStatus:
	// the session and its turns keep them up to date.
	SearchAttributes bool `json:"search_attributes,omitempty"`
	// FailedCallsAttribute is passed on to the turns (TurnInput).
	FailedCallsAttribute bool `json:"failed_calls_attribute,omitempty"`

	// Fork starts a sub-agent from its parent's conversation and budget state.
	Fork *Fork `json:"fork,omitempty"`
	// Inherited is the parent's budget state given to a resumed sub-agent, which
	// uses it when it was a fork.
	Inherited *budget.State `json:"inherited,omitempty"`
	// Depth is how deep in sub-agents this session is (0 for the top).
	Depth int `json:"depth,omitempty"`

	// Place asks for the session to be placed on one host of a fleet (fleet.go):
	// its tools then run on that host alone.
	Place bool `json:"place,omitempty"`
	// Placement is where the session's tools run once placed; a sub-agent and a
	// continued run are given their session's.
	Placement *contract.Placement `json:"placement,omitempty"`
	// Checkpoints asks for the workspace to be checkpointed after every turn that
	// may change files (session_checkpoint.go); a placed session takes them anyway.
	Checkpoints bool `json:"checkpoints,omitempty"`
	// Repo, URL[@REF], is cloned into Workdir on the session's host before the first
	// turn (session_source.go).
	Repo string `json:"repo,omitempty"`

	// Carry is set by continue-as-new only: the state of the previous run.
	Carry *SessionCarry `json:"carry,omitempty"`
	// Control is set for a run that calls no model: one that serves a rewind or
	// makes a fork (session_rewind.go).
	Control *SessionControl `json:"control,omitempty"`
}

// Fork is what a forked sub-agent starts from.
type Fork struct {
	Conversation conversation.Conversation `json:"conversation"`
	State        *budget.State             `json:"state"`
}

// ModelOptions say which model to call and how.
type ModelOptions struct {
	Model     string `json:"model,omitempty"`
	MaxTokens int    `json:"max_tokens,omitempty"`
	System    string `json:"system,omitempty"`
	// Price is the model's price for the cost estimate; nil takes modelinfo's table.
	Price *modelinfo.Price `json:"price,omitempty"`
	// ContextWindow is the model's window in tokens; zero takes modelinfo's table.
	ContextWindow int `json:"context_window,omitempty"`
	// Compactions counts the times the conversation was replaced by a summary.
	Compactions int `json:"compactions,omitempty"`
}

// SessionOptions tune a session; zero values take the defaults.
type SessionOptions struct {
	// MaxTurns bounds the model calls of the session (default 100).
	MaxTurns int `json:"max_turns,omitempty"`
	// MaxBudgetUSD, when positive, ends the prompt once the estimated cost of the
	// session's model calls reaches it (checked after each call, as the Claude Agent
	// SDK's max_budget_usd).
	MaxBudgetUSD float64 `json:"max_budget_usd,omitempty"`
	// BudgetChars is the conversation budget of one user message (default 200,000).
	BudgetChars int `json:"budget_chars,omitempty"`
	// MaxDepth bounds sub-agent nesting (default 2).
	MaxDepth int `json:"max_depth,omitempty"`
	// ModelHeartbeatTimeout bounds how long a streaming model call may go unheard
	// before it counts as lost (default 30s).
	ModelHeartbeatTimeout time.Duration `json:"model_heartbeat_timeout,omitempty"`
	// ModelRetryInterval is the first wait before a failed model call is retried
	// (default 2s, doubling up to a minute).
	ModelRetryInterval time.Duration `json:"model_retry_interval,omitempty"`
	// ModelAttempts bounds the tries of one model call (default 10).
	ModelAttempts int32 `json:"model_attempts,omitempty"`
	// ContinueAsNewEvery continues as new after this many model calls in one run,
	// besides whenever Temporal suggests it; zero means only then.
	ContinueAsNewEvery int `json:"continue_as_new_every,omitempty"`
	// QuestionTimeout bounds how long an AskUserQuestion call waits for a person;
	// past it the model is told nobody answered. 0: it waits until answered.
	QuestionTimeout time.Duration `json:"question_timeout,omitempty"`
	// WakeupMinSeconds is the shortest a ScheduleWakeup sleeps (default 60, Claude
	// Code's bound; at most 3,600): a shorter delay is clamped to it and the model
	// is told so. For loops that must pace faster, and for tests that would
	// otherwise wait a minute for a timer.
	WakeupMinSeconds int `json:"wakeup_min_seconds,omitempty"`
	// Turn tunes the tools.
	Turn TurnOptions `json:"turn"`
}

func (o SessionOptions) withDefaults() SessionOptions {
	if o.WakeupMinSeconds <= 0 {
		o.WakeupMinSeconds = tool.WakeupMinSeconds
	}
	if o.MaxTurns <= 0 {
		o.MaxTurns = 100
	}
	if o.BudgetChars <= 0 {
		o.BudgetChars = budget.DefaultBudgetChars
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = 2
	}
	if o.ModelHeartbeatTimeout <= 0 {
		o.ModelHeartbeatTimeout = 30 * time.Second
	}
	if o.ModelRetryInterval <= 0 {
		o.ModelRetryInterval = 2 * time.Second
	}
	if o.ModelAttempts <= 0 {
		o.ModelAttempts = 10
	}
	return o
}

func (m ModelOptions) withDefaults() ModelOptions {
	if m.Model == "" {
		m.Model = DefaultModel
	}
	info, _ := modelinfo.Lookup(m.Model)
	if m.Price == nil {
		m.Price = &info.Price
	}
	if m.ContextWindow <= 0 {
		m.ContextWindow = info.ContextWindow
	}
	if m.MaxTokens <= 0 {
		m.MaxTokens = 8192
	}
	return m
}

// SessionCarry is what continue-as-new carries: the budget state and the references
// to the stored conversation, never its texts.
type SessionCarry struct {
	State       *budget.State          `json:"state"`
	Head        conversation.Head      `json:"head"`
	ResultsDir  string                 `json:"results_dir"`
	PendingUser []conversation.Message `json:"pending_user,omitempty"`
	Turns       int                    `json:"turns"`
	Usage       conversation.Usage     `json:"usage"`
	Context     tool.Context           `json:"context"`
	Runs        int                    `json:"runs"`
	Events      []SessionEvent         `json:"events,omitempty"`
	EventBase   int                    `json:"event_base"`
	// ModelStop and LastResults keep the current details whole across runs.
	ModelStop   string `json:"model_stop,omitempty"`
	LastResults int    `json:"last_results,omitempty"`
	LastError   string `json:"last_error,omitempty"`
	// LastUsage and Cost keep the token accounting whole across runs.
	LastUsage conversation.Usage `json:"last_usage"`
	Cost      float64            `json:"cost,omitempty"`
	// CtxBytes and Compactions keep context management's state (the summary itself
	// is in Head).
	CtxBytes    int `json:"ctx_bytes,omitempty"`
	Compactions int `json:"compactions,omitempty"`
	// PromptSeq keeps the hooks' prompt_id across runs (session_prompt_id.go).
	PromptSeq int `json:"prompt_seq,omitempty"`
	// EndedTasks are the background tasks that ended in earlier runs (the most
	// recent carriedTasks): TaskStop and the state query still know them. A run
	// continues as new only once none runs.
	EndedTasks []EndedTask `json:"ended_tasks,omitempty"`
	// Wakeup is the pending ScheduleWakeup, NoopStreak the quiet rounds before it.
	Wakeup     *Wakeup `json:"wakeup,omitempty"`
	NoopStreak int     `json:"noop_streak,omitempty"`
	// Tools is the task list and the mode plan mode set (session_tools.go).
	Tools *SessionToolState `json:"tools,omitempty"`
	// Checkpoints are the workspace's checkpoints so far, oldest first.
	Checkpoints []TurnCheckpoint `json:"checkpoints,omitempty"`
	// MarkBefore and MarkPrompt are what the next model call's history mark
	// records (session_rewind.go), when messages were stored just before the switch.
	MarkBefore *conversation.Conversation `json:"mark_before,omitempty"`
	MarkPrompt string                     `json:"mark_prompt,omitempty"`
}

// EndedTask is a background task that has ended, as a continued session keeps it.
type EndedTask struct {
	ID          string `json:"id"`
	ToolUseID   string `json:"tool_use_id"`
	Command     string `json:"command"`
	Description string `json:"description,omitempty"`
	OutputFile  string `json:"output_file"`
	// Status is tool.TaskCompleted, TaskFailed or TaskKilled.
	Status string `json:"status"`
}

// SessionResult is the workflow result.
type SessionResult struct {
	SessionID string `json:"session_id"`
	// StopReason is why the session ended: the model's stop reason (end_turn),
	// StopMaxTurns or StopHook.
	StopReason string `json:"stop_reason"`
	// HookReason is the stopReason a hook gave with continue: false.
	HookReason string `json:"hook_reason,omitempty"`
	// Text is the last assistant message's text (cut to conversation.MaxReplyText).
	Text  string `json:"text"`
	Turns int    `json:"turns"`
	// LastTurn is the number of the session's last Turn (SessionState.LastTurn), so
	// a closed session's status reads it from the result.
	LastTurn     int                       `json:"last_turn,omitempty"`
	Conversation conversation.Conversation `json:"conversation"`
	Budget       *budget.State             `json:"budget"`
	Usage        conversation.Usage        `json:"usage"`
	// Error is the model's failure when StopReason is StopModelError.
	Error string `json:"error,omitempty"`
	// Cost is the estimated cost of the session's model calls, in US dollars.
	Cost float64 `json:"cost,omitempty"`
	// Checkpoints are the workspace's checkpoints of the session's runs, oldest
	// first (session_checkpoint.go), so a closed session's status lists them.
	Checkpoints []TurnCheckpoint `json:"checkpoints,omitempty"`
	// Workspace is what a fork's run put in its working directory (the parent's
	// files at the point), nil when it left it alone.
	Workspace *CodeRewind `json:"workspace,omitempty"`
}

// SendRequest is a user message for a running session.
type SendRequest struct {
	Text string `json:"text"`
}

// StartTaskRequest is a streamed Task block of the running model call of turn TurnID.
type StartTaskRequest struct {
	TurnID string          `json:"turn_id"`
	ID     string          `json:"id"`
	Input  json.RawMessage `json:"input"`
}

// OpenTurnRequest names the Turn to start: the one the streaming model call was given.
type OpenTurnRequest struct {
	TurnID string `json:"turn_id"`
}

// SendResponse says how many user messages wait for the next model call.
type SendResponse struct {
	Queued int `json:"queued"`
}

// Event kinds.
const (
	EventUser       = "user"
	EventAssistant  = "assistant"
	EventToolUse    = "tool_use"
	EventToolResult = "tool_result"
	EventStop       = "stop"
	// EventModel: a model call starts (Text is the model).
	EventModel = "model"
	// EventNotice: something the user should know that is not the conversation
	// (an MCP server that could not be reached).
	EventNotice = "notice"
	// EventWakeup: the session sleeps until a ScheduleWakeup fires (Text says until
	// when and why; Noop marks a quiet round).
	EventWakeup = "wakeup"
	// EventQuestion: an AskUserQuestion call waits for a person (Text lists the
	// questions and says how to answer).
	EventQuestion = "question"
	// EventError: a model call failed for good and the prompt ended (Text is the
	// API's message).
	EventError = "error"
	// EventCompact: the conversation was replaced by a summary (Text says how).
	EventCompact = "compact"
	// EventTurn: the model call's Turn started (Text is its workflow id); the events
	// from here to the end of the turn carry its TurnID.
	EventTurn = "turn"
)

// SessionEvent is one thing that happened, for people watching.
type SessionEvent struct {
	Kind      string `json:"kind"`
	Text      string `json:"text,omitempty"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	IsError   bool   `json:"is_error,omitempty"`
	// Noop marks an EventWakeup of a round that found nothing to report.
	Noop bool `json:"noop,omitempty"`
	Turn int  `json:"turn"`
	// TurnID is the Turn workflow running when the event happened, if any: a
	// watcher follows its tools' progress.
	TurnID string `json:"turn_id,omitempty"`
}

// EventsResponse carries the events from a cursor on; Next is the cursor for the next
// call and Done says the session has ended.
type EventsResponse struct {
	Events []SessionEvent `json:"events"`
	Next   int            `json:"next"`
	Done   bool           `json:"done"`
}

// SessionPhase is what a session is doing, as SessionState.Phase reports it (the
// JSON value is the constant's text).
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
	// PhaseSleeping: the model has ended its turn with a ScheduleWakeup pending;
	// the session sleeps on a timer until it fires (SessionState.Wakeup says when).
	PhaseSleeping SessionPhase = "sleeping"
	// PhaseDone: the session has ended.
	PhaseDone SessionPhase = "done"
)

// SessionState is the contract.SessionStateQuery's answer.
type SessionState struct {
	SessionID string `json:"session_id"`
	// Phase is what the session is doing now.
	Phase SessionPhase `json:"phase"`
	// TurnID is the running Turn workflow, if any, and TurnNumber the number its id
	// ends in (turn-N).
	TurnID     string `json:"turn_id,omitempty"`
	TurnNumber int    `json:"turn_number,omitempty"`
	// Turns counts the model calls of this prompt (what --max-turns bounds); a call
	// whose reply has tool calls runs them in a Turn. LastTurn is the number of the
	// session's last Turn workflow (0 for sessions that named turns after messages).
	Turns       int                `json:"turns"`
	LastTurn    int                `json:"last_turn,omitempty"`
	Messages    int                `json:"messages"`
	Bytes       int                `json:"bytes"`
	PendingUser int                `json:"pending_user"`
	Seen        int                `json:"seen"`
	Replaced    int                `json:"replaced"`
	Runs        int                `json:"runs"`
	Usage       conversation.Usage `json:"usage"`
	StopReason  string             `json:"stop_reason,omitempty"`
	// LastError is the model failure that ended the last prompt, if any.
	LastError string `json:"last_error,omitempty"`
	// LastUsage is the last model call's usage; Usage sums them all. Cost estimates
	// what they cost in US dollars at Model's price.
	LastUsage conversation.Usage `json:"last_usage"`
	Cost      float64            `json:"cost"`
	Model     string             `json:"model,omitempty"`
	// ContextWindow is the model's window in tokens; the last call filled
	// LastUsage.Context() of it.
	ContextWindow int `json:"context_window,omitempty"`
	// Compactions counts the times the conversation was replaced by a summary.
	Compactions int `json:"compactions,omitempty"`
	// BackgroundTasks are the session's background shells, running or ended, in the
	// order they started; ended ones of earlier runs as far as continue-as-new
	// carried them (session_background.go).
	BackgroundTasks []hooks.BackgroundTask `json:"background_tasks,omitempty"`
	// Wakeup is the pending ScheduleWakeup, if any (session_schedulewakeup.go).
	Wakeup *Wakeup `json:"wakeup,omitempty"`
	// Questions are the AskUserQuestion calls waiting for a person, in the order
	// asked (session_askuserquestion.go).
	Questions []PendingQuestion `json:"questions,omitempty"`
	// Placement is the host the session's tools run on, on a fleet (fleet.go).
	Placement *contract.Placement `json:"placement,omitempty"`
	// Tasks is the session's task list (TaskCreate, TaskUpdate; session_tools.go).
	Tasks []tool.TaskItem `json:"tasks,omitempty"`
	// PlanMode says the model entered plan mode and no plan was approved since.
	PlanMode bool `json:"plan_mode,omitempty"`
	// Checkpoints are the workspace's checkpoints, oldest first: which turn produced
	// which checkpoint (session_checkpoint.go).
	Checkpoints []TurnCheckpoint `json:"checkpoints,omitempty"`
	// History is this run's newest model calls, one line each, as `agent history`
	// lists them (session_rewind.go), so the UI's details show which turn to pick.
	History []HistoryLine `json:"history,omitempty"`
}

// HistoryLine is one model call of the session's history.
type HistoryLine struct {
	Turn      int      `json:"turn"`
	What      string   `json:"what"`
	Files     []string `json:"files,omitempty"`
	InTokens  int64    `json:"in_tokens"`
	OutTokens int64    `json:"out_tokens"`
}
