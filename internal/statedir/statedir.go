// Package statedir is the one home of the state directory's layout: the names of
// what toolpipe keeps there and the paths built from them. A file:// blob store
// has the same layout under its root (internal/blobstore builds its keys from
// these names), so that a single machine's state directory reads the same with
// or without a blob store.
//
//	<state dir>/
//	  payloads/                  large Temporal payloads, by SHA-256
//	  checkpoints/objects/       workspace checkpoints' objects, shared
//	  workers/  queues/          a host's liveness and queue locks (local only)
//	  cache/                     a host's caches (the checkpoint git index)
//	  claude/                    toolpipe-claude's own files
//	  <session>/
//	    tool-results/<id>.txt    persisted outputs the model Reads
//	    tasks/<id>.output        background tasks' output
//	    conversation/            the stored messages, head.json, records/,
//	                             turns.json (the history), rewinds.json, workspace.json
//	    checkpoints/<id>.json    the session's checkpoint records
//	    transcript.jsonl         the hooks' transcript
//	    read-state.json          what the session read
//
// The package does no I/O: workflow code may build paths with it.
package statedir

import "path/filepath"

// The top-level names that are not sessions: the blob store's shared ones
// (payloads/, checkpoints/) and the local ones a file:// store shares its root with.
// A session with one of these ids would collide with them; a retention sweep must
// leave them alone (Reserved).
const (
	PayloadsDir    = "payloads"
	CheckpointsDir = "checkpoints"
	WorkersDir     = "workers"
	QueuesDir      = "queues"
	CacheDir       = "cache"
	ClaudeDir      = "claude"
)

// Reserved lists the top-level names above.
var Reserved = []string{PayloadsDir, CheckpointsDir, WorkersDir, QueuesDir, CacheDir, ClaudeDir}

// IsReserved reports whether name is one of the top-level names that are not sessions.
func IsReserved(name string) bool {
	for _, r := range Reserved {
		if r == name {
			return true
		}
	}
	return false
}

// The names inside a session's directory.
const (
	ToolResultsDir  = "tool-results"
	ConversationDir = "conversation"
	RecordsDir      = "records"
	HeadFile        = "head.json"
	TurnsFile       = "turns.json"
	RewindsFile     = "rewinds.json"
	WorkspaceFile   = "workspace.json"
	TranscriptFile  = "transcript.jsonl"
	ReadStateFile   = "read-state.json"
	TasksDir        = "tasks"
)

// Dir is a state directory (absolute).
type Dir string

// Payloads is where large payloads are kept by their SHA-256.
func (d Dir) Payloads() string { return filepath.Join(string(d), PayloadsDir) }

// Workers holds the liveness records of the workers of each task queue.
func (d Dir) Workers() string { return filepath.Join(string(d), WorkersDir) }

// Queues holds the lock files that say which task queue a process serves.
func (d Dir) Queues() string { return filepath.Join(string(d), QueuesDir) }

// Cache is a host's caches (rebuilt when missing).
func (d Dir) Cache() string { return filepath.Join(string(d), CacheDir) }

// Claude holds toolpipe-claude's own files (settings it wrote, the last session).
func (d Dir) Claude() string { return filepath.Join(string(d), ClaudeDir) }

// Session is the directory of the session with file-safe id session (the caller
// checked it with preview.ValidateName).
func (d Dir) Session(session string) Session {
	return Session(filepath.Join(string(d), session))
}

// Session is one session's directory.
type Session string

// OfResults is the session whose tool-results directory is dir: the workflows
// learn that directory from the activity that made it, and find the rest beside it.
func OfResults(dir string) Session { return Session(filepath.Dir(dir)) }

// ToolResults is where the session's persisted outputs are.
func (s Session) ToolResults() string { return filepath.Join(string(s), ToolResultsDir) }

// Tasks is where the session's background tasks write their output.
func (s Session) Tasks() string { return filepath.Join(string(s), TasksDir) }

// Conversation is where the session's messages are stored.
func (s Session) Conversation() string { return filepath.Join(string(s), ConversationDir) }

// Transcript is the hooks' transcript of the session.
func (s Session) Transcript() string { return filepath.Join(string(s), TranscriptFile) }

// ReadState is what the session read (the files Edit and Write may change).
func (s Session) ReadState() string { return filepath.Join(string(s), ReadStateFile) }
