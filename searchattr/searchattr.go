package searchattr

import enumspb "go.temporal.io/api/enums/v1"

const (
	// SessionID (Keyword) is the session id of a turn or session workflow:
	// ToolpipeSessionID="S" lists a session and all its turns.
	SessionID = "ToolpipeSessionID"
	// Status (Keyword) is the workflow's state, one of the workflows.Status*
	// values: ToolpipeStatus="awaiting_approval" finds every turn waiting for a person.
	Status = "ToolpipeStatus"
)

// Registered returns every attribute toolpipe uses with its type, a fresh map the
// caller may keep: what a namespace must have before a turn may upsert them.
func Registered() map[string]enumspb.IndexedValueType {
	return map[string]enumspb.IndexedValueType{
		SessionID: enumspb.INDEXED_VALUE_TYPE_KEYWORD,
		Status:    enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	}
}
