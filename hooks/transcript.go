package hooks

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/toolpipe/toolpipe/internal/statedir"
	"github.com/toolpipe/toolpipe/wire"
)

// TranscriptFile is the name of a session's transcript under its state directory
// (<state dir>/<session>/transcript.jsonl): the file hooks get as transcript_path.
const TranscriptFile = statedir.TranscriptFile

// TranscriptPath is where the transcript of a session lives, given the state
// directory shared by the starter and the workers.
func TranscriptPath(stateDir, sessionID string) string {
	if sessionID == "" {
		sessionID = "default"
	}
	return statedir.Dir(stateDir).Session(strings.ReplaceAll(sessionID, "/", "_")).Transcript()
}

// TranscriptVersion is written as each entry's "version", where Claude Code writes
// its own version: tools reading transcripts can tell who wrote them.
const TranscriptVersion = "toolpipe"

// Entry is one line of a transcript, in Claude Code's JSONL format: a user or
// assistant message of the conversation with the fields hooks and transcript
// readers use. Entries are built in workflow code from recorded values only (their
// UUIDs are derived, their timestamps are workflow time), so a replay builds the
// same bytes, and appending is idempotent by UUID.
type Entry struct {
	ParentUUID  *string         `json:"parentUuid"`
	IsSidechain bool            `json:"isSidechain"`
	PromptID    string          `json:"promptId,omitempty"`
	Type        string          `json:"type"`
	Message     json.RawMessage `json:"message"`
	UUID        string          `json:"uuid"`
	Timestamp   string          `json:"timestamp"`
	// ToolUseResult is the tool's structured output, as on Claude Code's
	// tool_result entries, when it was built (PostToolUse hooks asked for it).
	ToolUseResult           json.RawMessage `json:"toolUseResult,omitempty"`
	SourceToolAssistantUUID string          `json:"sourceToolAssistantUUID,omitempty"`
	PermissionMode          string          `json:"permissionMode,omitempty"`
	UserType                string          `json:"userType"`
	Entrypoint              string          `json:"entrypoint"`
	Cwd                     string          `json:"cwd"`
	SessionID               string          `json:"sessionId"`
	Version                 string          `json:"version"`
}

// EntryBase holds the fields every entry of one session shares.
type EntryBase struct {
	SessionID, Cwd, PromptID, PermissionMode string
	Time                                     time.Time
}

func (b EntryBase) entry(typ, uuid string, parent string, msg any) Entry {
	raw, _ := json.Marshal(msg) // messages are built from JSON values: they marshal
	e := Entry{IsSidechain: false, PromptID: b.PromptID, Type: typ, Message: raw, UUID: uuid,
		Timestamp: b.Time.UTC().Format("2006-01-02T15:04:05.000Z"), UserType: "external", Entrypoint: "toolpipe",
		Cwd: b.Cwd, SessionID: b.SessionID, Version: TranscriptVersion}
	if parent != "" {
		e.ParentUUID = &parent
	}
	return e
}

// UserPromptEntry is a user's message.
func (b EntryBase) UserPromptEntry(uuid, parent, text string) Entry {
	e := b.entry("user", uuid, parent, map[string]any{"role": "user", "content": text})
	e.PermissionMode = b.PermissionMode
	return e
}

// AssistantEntry is one content block of an assistant message: Claude Code writes
// each block of a message as an entry of its own, sharing the message id.
func (b EntryBase) AssistantEntry(uuid, parent, messageID string, block json.RawMessage) Entry {
	return b.entry(wire.RoleAssistant, uuid, parent, map[string]any{
		"id": messageID, "type": "message", "role": wire.RoleAssistant, "content": []json.RawMessage{block}})
}

// ToolResultEntry answers the tool_use of the assistant entry parent.
func (b EntryBase) ToolResultEntry(uuid, parent, toolUseID, content string, isError bool, response json.RawMessage) Entry {
	e := b.entry("user", uuid, parent, map[string]any{"role": "user", "content": []any{map[string]any{
		"type": wire.BlockToolResult, "tool_use_id": toolUseID, "content": content, "is_error": isError}}})
	e.ToolUseResult, e.SourceToolAssistantUUID = response, parent
	return e
}

// StableUUID derives a UUID-formatted id from names, the same on every replay: an
// entry's id is what makes appending it twice (an activity retried) harmless.
func StableUUID(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	h[6] = h[6]&0x0f | 0x50 // version 5 layout (name-based)
	h[8] = h[8]&0x3f | 0x80 // RFC 4122 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// TranscriptAppend is the input of the transcript activity: entries to add to the
// end of the file at Path, each once.
type TranscriptAppend struct {
	Path    string  `json:"path"`
	Entries []Entry `json:"entries"`
}
