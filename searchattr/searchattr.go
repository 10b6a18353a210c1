package searchattr

import enumspb "go.temporal.io/api/enums/v1"

const (
	// SessionID (Keyword) is the session id of a turn or session workflow:
	// ToolpipeSessionID="S" lists a session and all its turns.
	SessionID = "ToolpipeSessionID"
	// Status (Keyword) is the workflow's state, one of the workflows.Status*
	// values: ToolpipeStatus="awaiting_approval" finds every turn waiting for a person.
	Status = "ToolpipeStatus"
	// FailedCalls (Int) is how many calls of a finished turn ended with an error
	// result: ToolpipeFailedCalls > 0 lists the turns with failed calls. A turn sets
	// it only where the namespace has it (it came after the other two: a cluster
	// that registered only those still gets them).
	FailedCalls = "ToolpipeFailedCalls"
	// ParentSession (Keyword) is the session a fork was made from (`starter agent
	// fork`): ToolpipeParentSession="S" lists S's forks. Set only where the
	// namespace has it, as FailedCalls.
	ParentSession = "ToolpipeParentSession"
)

// Registered returns every attribute toolpipe uses with its type, a fresh map the
// caller may keep: what a namespace must have before a turn may upsert them.
func Registered() map[string]enumspb.IndexedValueType {
	return map[string]enumspb.IndexedValueType{
		SessionID:     enumspb.INDEXED_VALUE_TYPE_KEYWORD,
		Status:        enumspb.INDEXED_VALUE_TYPE_KEYWORD,
		FailedCalls:   enumspb.INDEXED_VALUE_TYPE_INT,
		ParentSession: enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	}
}

// Required are the attributes a turn needs before it upserts any (SessionID and
// Status); FailedCalls is set only where it is registered too.
func Required() map[string]enumspb.IndexedValueType {
	r := Registered()
	delete(r, FailedCalls)
	delete(r, ParentSession)
	return r
}
