package conversation

import (
	"encoding/json"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/tool"
)

// Head says where a session's conversation stands; the store keeps it so that a
// session can be resumed.
type Head struct {
	// Conversation is every message of the session, its inherited prefix included.
	Conversation Conversation `json:"conversation"`
	// Next is the next sequence number of the session's own messages.
	Next int `json:"next"`
	// Forked is true for a sub-agent that started from its parent's conversation: its
	// resume inherits its parent's replacement state.
	Forked bool `json:"forked,omitempty"`
	// LastTurn is the number of the session's last Turn workflow (its id ends in
	// turn-<LastTurn>), so that a later run of the session numbers its turns on;
	// TurnsNumbered says the turns are numbered so. Heads from before it numbered
	// turns by message (turn-<seq>): a run that finds one numbers its turns from
	// Next up, past every id the session used.
	LastTurn      int  `json:"last_turn,omitempty"`
	TurnsNumbered bool `json:"turns_numbered,omitempty"`
	// Parent is the session this one was forked from (`starter agent fork`) and
	// ForkedAt the turn: its runs link to it (memo and ToolpipeParentSession), and
	// its budget state starts from the parent's records.
	Parent   string `json:"parent,omitempty"`
	ForkedAt int    `json:"forked_at,omitempty"`
}

// ModelRequest is the input of the model activity: which stored messages to send,
// where to store the answer, and which Turn receives its tool_use blocks.
type ModelRequest struct {
	SessionID string `json:"session_id"`
	// Seq is the session's sequence number the assistant message is stored under.
	Seq int `json:"seq"`
	// Conversation is the messages sent, as stored.
	Conversation Conversation `json:"conversation"`
	// TurnID is the Turn workflow that runs the tool_use blocks as they stream.
	TurnID string `json:"turn_id"`
	// OpenTurn: the Turn does not exist yet; the activity asks the calling Session to
	// start it (its OpenTurn update) before it hands over the first block, so that a
	// reply without tool calls for a turn starts none. Turn is its number.
	OpenTurn bool `json:"open_turn,omitempty"`
	Turn     int  `json:"turn,omitempty"`
	// LastTurn and TurnsNumbered are kept in the heads stored with the message (see
	// Head): LastTurn becomes Turn when the turn was opened.
	LastTurn      int    `json:"last_turn,omitempty"`
	TurnsNumbered bool   `json:"turns_numbered,omitempty"`
	Model         string `json:"model"`
	MaxTokens     int    `json:"max_tokens"`
	System        string `json:"system,omitempty"`
	// Task offers the Task tool (sub-agents).
	Task bool `json:"task,omitempty"`
	// TaskIntake: the calling Session takes each Task block as it streams (its
	// StartTask update), so sub-agents start before the message ends.
	TaskIntake bool `json:"task_intake,omitempty"`
	// Forked, Parent and ForkedAt are kept in the head stored with the message
	// (see Head).
	Forked   bool   `json:"forked,omitempty"`
	Parent   string `json:"parent,omitempty"`
	ForkedAt int    `json:"forked_at,omitempty"`
	// MCPTools are offered to the model besides the built-in tools.
	MCPTools []tool.MCPSpec `json:"mcp_tools,omitempty"`
	// Disabled are tools a deny rule names whole: they are not offered, as in
	// Claude Code (permissions.Policy.Disables).
	Disabled []string `json:"disabled,omitempty"`
}

// MaxReplyText bounds the assistant text a ModelReply carries into workflow history;
// the whole message is in the store.
const MaxReplyText = 4000

// ModelReply is what the workflow learns of the assistant message: enough to
// orchestrate, not the message itself.
type ModelReply struct {
	Seq        int    `json:"seq"`
	Size       int    `json:"size"`
	StopReason string `json:"stop_reason"`
	// ToolUses are the message's tool_use blocks in order; Input is kept only for
	// Task, which the Session runs itself (the Turn received the others' inputs).
	ToolUses []ToolUse `json:"tool_uses,omitempty"`
	// Text is the start of the message's text, for people watching.
	Text          string `json:"text,omitempty"`
	TextTruncated bool   `json:"text_truncated,omitempty"`
	Usage         Usage  `json:"usage"`
	// Cut says the stream broke after a tool_use was handed to the turn: the message
	// was finished with the blocks received, as the tools had already started.
	Cut bool `json:"cut,omitempty"`
}

// ToolUse is one tool_use block of an assistant message.
type ToolUse struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Summary names the call for people: "Bash(npm test)".
	Summary string          `json:"summary,omitempty"`
	Input   json.RawMessage `json:"input,omitempty"`
	// File is the file a file tool's call writes (Write, Edit, NotebookEdit).
	File string `json:"file,omitempty"`
}

// Usage counts the tokens of one model call (or a session's calls): InputTokens are
// the input tokens billed at the full rate, after the last cache breakpoint;
// CacheCreationInputTokens were written to the prompt cache and CacheReadInputTokens
// read from it. Their sum is the request's size, what fills the context window.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens,omitempty"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens,omitempty"`
}

// Add sums two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		InputTokens: u.InputTokens + o.InputTokens, OutputTokens: u.OutputTokens + o.OutputTokens,
		CacheCreationInputTokens: u.CacheCreationInputTokens + o.CacheCreationInputTokens,
		CacheReadInputTokens:     u.CacheReadInputTokens + o.CacheReadInputTokens,
	}
}

// Context is the request's input tokens, cached or not.
func (u Usage) Context() int64 {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// Original is the full content of a tool result the budget replaced, which the
// append activity persists where the replacement says.
type Original struct {
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content"`
}

// AppendRequest stores messages (already budgeted) from Seq on, with the records and
// originals of the replacements decided for them, and the new head.
type AppendRequest struct {
	SessionID string          `json:"session_id"`
	Seq       int             `json:"seq"`
	Messages  []Message       `json:"messages"`
	Records   []budget.Record `json:"records,omitempty"`
	Originals []Original      `json:"originals,omitempty"`
	Head      Head            `json:"head"`
}

// AppendReply gives the stored messages' sizes.
type AppendReply struct {
	Sizes []int `json:"sizes"`
}

// OpenRequest opens a session's store. A session id names one conversation: when the
// store already has one under it, the session resumes it, reloading its head and
// reconstructing its replacement state from its records (on top of Inherited when it
// was forked).
type OpenRequest struct {
	SessionID string        `json:"session_id"`
	Inherited *budget.State `json:"inherited,omitempty"`
}

// OpenReply says where replaced results are persisted and, for a resumed session,
// where it stands.
type OpenReply struct {
	// ResultsDir is the directory of the session's persisted tool results.
	ResultsDir string `json:"results_dir"`
	// Found is true when a resumed session had a head.
	Found bool          `json:"found,omitempty"`
	Head  Head          `json:"head"`
	State *budget.State `json:"state,omitempty"`
	// Workspace is the last state of the session's workspace timeline, if it has
	// one: what a later run placed on another host restores first.
	Workspace *WorkspaceState `json:"workspace,omitempty"`
}
