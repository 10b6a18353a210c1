package blobstore

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/toolpipe/toolpipe/internal/preview"
	"github.com/toolpipe/toolpipe/internal/statedir"
)

// The key scheme: every kind of object toolpipe keeps, and the key it lives under.
// Keys are slash-separated; on the file:// default rooted at the state directory a
// key is the path below it, and these are exactly the paths of the packages that
// wrote these files before the store existed (layout_test.go checks each one against
// the code that writes it):
//
//	payloads/<sha256>                                  large Temporal payloads (persistence.PayloadDriver)
//	<session>/tool-results/<tool_use_id>.txt|.json     persisted tool outputs (persistence.FS)
//	<session>/conversation/<seq>.json                  one message of the conversation
//	<session>/conversation/<seq>.partial.json          a message still streaming
//	<session>/conversation/records/<seq>.json          budget replacement records
//	<session>/conversation/head.json                   where the conversation stands
//	<session>/conversation/turns.json                  the marks of its model calls (its history)
//	<session>/conversation/rewinds.json                its rewinds, who and when
//	<session>/conversation/workspace.json              its workspace's checkpoints, in time order
//	<session>/transcript.jsonl                         the transcript hooks read (hooks.TranscriptPath)
//	<session>/read-state.json                          the files the session has read
//	<session>/tasks/<task_id>.output                   a background task's output
//	checkpoints/objects/<2 hex>/<62 hex>               a workspace checkpoint's git object (new)
//	<session>/checkpoints/<checkpoint id>.json         a checkpoint taken for a session (new)
//	<session>/placement/<generation>.json              a session's placement on a host (new; the fence)
//
// <seq> is a message's sequence number, six digits or more. A session id, tool_use_id
// or task id is one path element (preview.ValidateName) without control characters.

// Kind is the kind of object a key names.
type Kind int

// The kinds of object, one per line of the scheme above.
const (
	KindPayload Kind = iota + 1
	KindToolResult
	KindConversationMessage
	KindConversationPartial
	KindConversationRecords
	KindConversationHead
	KindTranscript
	KindReadState
	KindBackgroundOutput
	KindCheckpointObject
	KindCheckpointRecord
	KindPlacement
	KindTurnLog
	KindRewindLog
	KindWorkspaceLog
)

var kindNames = map[Kind]string{
	KindPayload: "payload", KindToolResult: "tool result", KindConversationMessage: "conversation message",
	KindConversationPartial: "partial message", KindConversationRecords: "replacement records",
	KindConversationHead: "conversation head", KindTranscript: "transcript", KindReadState: "read state",
	KindBackgroundOutput: "background task output", KindCheckpointObject: "checkpoint object",
	KindCheckpointRecord: "checkpoint record", KindPlacement: "placement", KindTurnLog: "turn history", KindRewindLog: "rewinds",
	KindWorkspaceLog: "workspace timeline",
}

func (k Kind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// The layout's names are statedir's (one home: internal/statedir); the keys below
// are built from them so that a file:// store's root reads as a state directory.
const (
	PayloadsDir     = statedir.PayloadsDir
	CheckpointsDir  = statedir.CheckpointsDir
	CacheDir        = statedir.CacheDir
	ToolResultsDir  = statedir.ToolResultsDir
	ConversationDir = statedir.ConversationDir
	RecordsDir      = statedir.RecordsDir
	HeadFile        = statedir.HeadFile
	TurnsFile       = statedir.TurnsFile
	RewindsFile     = statedir.RewindsFile
	WorkspaceFile   = statedir.WorkspaceFile
	TranscriptFile  = statedir.TranscriptFile
	ReadStateFile   = statedir.ReadStateFile
	TasksDir        = statedir.TasksDir
)

// Key names one object. The zero Key is invalid; build keys with the functions below.
type Key struct {
	kind    Kind
	session string
	name    string
}

// String is the key as the service stores it.
func (k Key) String() string { return k.name }

// Kind is the kind of object the key names.
func (k Key) Kind() Kind { return k.kind }

// Session is the session the object belongs to; empty for payloads and checkpoint
// objects, which are shared by every session (content-addressed).
func (k Key) Session() string { return k.session }

// IsZero reports whether k was never built.
func (k Key) IsZero() bool { return k.kind == 0 }

// checkElem checks one path element of a key: preview.ValidateName's rule (no
// separators, no dot elements, no NUL, at most 200 bytes) and no control characters,
// which gocloud's file driver would escape and a reader of the directory could not
// type.
func checkElem(what, s string) error {
	if err := preview.ValidateName(what, s); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidKey, err)
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("%w: %s %q contains a control character", ErrInvalidKey, what, s)
		}
	}
	return nil
}

func sessionKey(kind Kind, session string, elems ...string) (Key, error) {
	if err := checkElem("session id", session); err != nil {
		return Key{}, err
	}
	return Key{kind: kind, session: session, name: session + "/" + strings.Join(elems, "/")}, nil
}

var hexHash = regexp.MustCompile(`^[0-9a-f]{64}$`)

// PayloadKey is where the payload whose SHA-256 is sum (64 lowercase hex digits) lives.
func PayloadKey(sum string) (Key, error) {
	if !hexHash.MatchString(sum) {
		return Key{}, fmt.Errorf("%w: payload hash %q is not 64 lowercase hex digits", ErrInvalidKey, sum)
	}
	return Key{kind: KindPayload, name: PayloadsDir + "/" + sum}, nil
}

// ToolResultKey is where the persisted output of toolUseID in session lives; .json
// when the output is structured, .txt otherwise.
func ToolResultKey(session, toolUseID string, structured bool) (Key, error) {
	if err := checkElem("tool_use_id", toolUseID); err != nil {
		return Key{}, err
	}
	ext := ".txt"
	if structured {
		ext = ".json"
	}
	return sessionKey(KindToolResult, session, ToolResultsDir, toolUseID+ext)
}

// SeqName is how a message's sequence number is written in keys: six digits or more.
func SeqName(seq int) string { return fmt.Sprintf("%06d", seq) }

func checkSeq(seq int) error {
	if seq < 0 {
		return fmt.Errorf("%w: message sequence number %d is negative", ErrInvalidKey, seq)
	}
	return nil
}

// MessageKey is where message seq of session's conversation lives.
func MessageKey(session string, seq int) (Key, error) {
	if err := checkSeq(seq); err != nil {
		return Key{}, err
	}
	return sessionKey(KindConversationMessage, session, ConversationDir, SeqName(seq)+".json")
}

// PartialKey is where the blocks streamed so far of message seq live.
func PartialKey(session string, seq int) (Key, error) {
	if err := checkSeq(seq); err != nil {
		return Key{}, err
	}
	return sessionKey(KindConversationPartial, session, ConversationDir, SeqName(seq)+".partial.json")
}

// RecordsKey is where the replacement records decided when message seq was budgeted live.
func RecordsKey(session string, seq int) (Key, error) {
	if err := checkSeq(seq); err != nil {
		return Key{}, err
	}
	return sessionKey(KindConversationRecords, session, ConversationDir, RecordsDir, SeqName(seq)+".json")
}

// HeadKey is where the head of session's conversation lives.
func HeadKey(session string) (Key, error) {
	return sessionKey(KindConversationHead, session, ConversationDir, HeadFile)
}

// TurnLogKey is where the marks of session's model calls live (its history).
func TurnLogKey(session string) (Key, error) {
	return sessionKey(KindTurnLog, session, ConversationDir, TurnsFile)
}

// RewindLogKey is where session's rewinds are recorded.
func RewindLogKey(session string) (Key, error) {
	return sessionKey(KindRewindLog, session, ConversationDir, RewindsFile)
}

// WorkspaceLogKey is where session's workspace timeline is recorded: the
// checkpoints of its turns and of its rewinds, in the order they happened.
func WorkspaceLogKey(session string) (Key, error) {
	return sessionKey(KindWorkspaceLog, session, ConversationDir, WorkspaceFile)
}

// TranscriptKey is where session's transcript lives. The session id is mapped as
// hooks.TranscriptPath maps it (empty is "default", a slash becomes "_"), so the
// key is the path hooks have always been given; an id that is still not one path
// element after that is refused rather than joined.
func TranscriptKey(session string) (Key, error) {
	if session == "" {
		session = "default"
	}
	return sessionKey(KindTranscript, strings.ReplaceAll(session, "/", "_"), TranscriptFile)
}

// ReadStateKey is where the files session has read are recorded.
func ReadStateKey(session string) (Key, error) {
	return sessionKey(KindReadState, session, ReadStateFile)
}

// BackgroundOutputKey is where the output of background task taskID of session goes.
func BackgroundOutputKey(session, taskID string) (Key, error) {
	if err := checkElem("task id", taskID); err != nil {
		return Key{}, err
	}
	return sessionKey(KindBackgroundOutput, session, TasksDir, taskID+".output")
}

// CheckpointObjectKey is where the git object whose SHA-256 object id is oid (64
// lowercase hex digits) lives, fanned out by its first two digits as git does.
func CheckpointObjectKey(oid string) (Key, error) {
	if !hexHash.MatchString(oid) {
		return Key{}, fmt.Errorf("%w: checkpoint object id %q is not 64 lowercase hex digits", ErrInvalidKey, oid)
	}
	return Key{kind: KindCheckpointObject, name: CheckpointsDir + "/objects/" + oid[:2] + "/" + oid[2:]}, nil
}

// CheckpointRecordKey is where the record of checkpoint id taken for session lives.
func CheckpointRecordKey(session, id string) (Key, error) {
	if !hexHash.MatchString(id) {
		return Key{}, fmt.Errorf("%w: checkpoint id %q is not 64 lowercase hex digits", ErrInvalidKey, id)
	}
	return sessionKey(KindCheckpointRecord, session, CheckpointsDir, id+".json")
}

// PlacementDir holds a session's placement records, one per generation.
const PlacementDir = "placement"

// PlacementKey is where the record of generation gen (1 or more) of session's
// placement lives: written Exclusive by the host that takes the session, so a host
// whose generation is older finds the next one there and stops (DESIGN §11).
func PlacementKey(session string, gen int) (Key, error) {
	if gen < 1 {
		return Key{}, fmt.Errorf("%w: placement generation %d is not 1 or more", ErrInvalidKey, gen)
	}
	return sessionKey(KindPlacement, session, PlacementDir, strconv.Itoa(gen)+".json")
}

// PlacementPrefix lists a session's placement records.
func PlacementPrefix(session string) (string, error) {
	if err := checkElem("session id", session); err != nil {
		return "", err
	}
	return session + "/" + PlacementDir + "/", nil
}

// PlacementGeneration is the generation of a placement record's key, as List
// returns it; false for a key that is not one (ParseKey decides).
func PlacementGeneration(key string) (int, bool) {
	k, err := ParseKey(key)
	if err != nil || k.kind != KindPlacement {
		return 0, false
	}
	gen, err := strconv.Atoi(strings.TrimSuffix(path.Base(key), ".json"))
	return gen, err == nil
}

// Prefixes for List. Each ends in "/" so that it lists one directory's subtree and
// never a sibling whose name starts the same way.
const (
	PayloadsPrefix          = PayloadsDir + "/"
	CheckpointObjectsPrefix = CheckpointsDir + "/objects/"
)

// SessionPrefix lists everything of session.
func SessionPrefix(session string) (string, error) {
	if err := checkElem("session id", session); err != nil {
		return "", err
	}
	return session + "/", nil
}

// ParseKey names the object a stored key holds, for what List returns. A key the
// scheme does not produce is ErrInvalidKey.
func ParseKey(s string) (Key, error) {
	parts := strings.Split(s, "/")
	bad := fmt.Errorf("%w: %q is not a key of the scheme", ErrInvalidKey, s)
	switch {
	case len(parts) == 2 && parts[0] == PayloadsDir:
		return PayloadKey(parts[1])
	case len(parts) == 4 && parts[0] == CheckpointsDir && parts[1] == "objects" && len(parts[2]) == 2:
		k, err := CheckpointObjectKey(parts[2] + parts[3])
		if err != nil || k.name != s {
			return Key{}, bad
		}
		return k, nil
	case len(parts) < 2:
		return Key{}, bad
	}
	session, rest := parts[0], parts[1:]
	var k Key
	var err error
	switch {
	case len(rest) == 1 && rest[0] == TranscriptFile:
		k, err = sessionKey(KindTranscript, session, TranscriptFile)
	case len(rest) == 1 && rest[0] == ReadStateFile:
		k, err = ReadStateKey(session)
	case len(rest) == 2 && rest[0] == ToolResultsDir:
		name := rest[1]
		if id, ok := strings.CutSuffix(name, ".txt"); ok {
			k, err = ToolResultKey(session, id, false)
		} else if id, ok := strings.CutSuffix(name, ".json"); ok {
			k, err = ToolResultKey(session, id, true)
		} else {
			return Key{}, bad
		}
	case len(rest) == 2 && rest[0] == TasksDir && strings.HasSuffix(rest[1], ".output"):
		k, err = BackgroundOutputKey(session, strings.TrimSuffix(rest[1], ".output"))
	case len(rest) == 2 && rest[0] == CheckpointsDir && strings.HasSuffix(rest[1], ".json"):
		k, err = CheckpointRecordKey(session, strings.TrimSuffix(rest[1], ".json"))
	case len(rest) == 2 && rest[0] == PlacementDir && strings.HasSuffix(rest[1], ".json"):
		gen, gerr := strconv.Atoi(strings.TrimSuffix(rest[1], ".json"))
		if gerr != nil {
			return Key{}, bad
		}
		k, err = PlacementKey(session, gen)
	case len(rest) == 2 && rest[0] == ConversationDir && rest[1] == HeadFile:
		k, err = HeadKey(session)
	case len(rest) == 2 && rest[0] == ConversationDir && rest[1] == TurnsFile:
		k, err = TurnLogKey(session)
	case len(rest) == 2 && rest[0] == ConversationDir && rest[1] == RewindsFile:
		k, err = RewindLogKey(session)
	case len(rest) == 2 && rest[0] == ConversationDir && rest[1] == WorkspaceFile:
		k, err = WorkspaceLogKey(session)
	case len(rest) == 2 && rest[0] == ConversationDir:
		if n, ok := strings.CutSuffix(rest[1], ".partial.json"); ok {
			k, err = seqKey(n, func(seq int) (Key, error) { return PartialKey(session, seq) })
		} else if n, ok := strings.CutSuffix(rest[1], ".json"); ok {
			k, err = seqKey(n, func(seq int) (Key, error) { return MessageKey(session, seq) })
		} else {
			return Key{}, bad
		}
	case len(rest) == 3 && rest[0] == ConversationDir && rest[1] == RecordsDir && strings.HasSuffix(rest[2], ".json"):
		k, err = seqKey(strings.TrimSuffix(rest[2], ".json"), func(seq int) (Key, error) { return RecordsKey(session, seq) })
	default:
		return Key{}, bad
	}
	if err != nil || k.name != s {
		return Key{}, errors.Join(bad, err)
	}
	return k, nil
}

func seqKey(digits string, build func(int) (Key, error)) (Key, error) {
	seq, err := strconv.Atoi(digits)
	if err != nil || len(digits) < 6 {
		return Key{}, fmt.Errorf("%w: %q is not a sequence number", ErrInvalidKey, digits)
	}
	return build(seq)
}
