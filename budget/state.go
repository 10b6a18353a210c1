package budget

// State is Claude Code's ContentReplacementState: which tool results have been judged,
// and the replacement chosen for those that were replaced. It is workflow state carried
// in Temporal payloads; encoding/json writes map keys sorted, so equal states always
// encode to equal bytes.
//
// Invariant: every key of Replacements is also in SeenIDs. The zero value (nil maps,
// as decoded from "{}") is a valid empty state.
type State struct {
	// SeenIDs holds every tool_use id already judged; only true entries count.
	SeenIDs map[string]bool `json:"seenIds"`
	// Replacements maps a replaced id to the exact bytes the model was sent instead.
	Replacements map[string]string `json:"replacements"`
}

// Record is a ContentReplacementRecord: one replacement decided by Enforce. The caller
// persists the original content and keeps the record with the transcript, because the
// records together with the messages are enough to Reconstruct the state.
type Record struct {
	ToolUseID   string `json:"toolUseId"`
	Replacement string `json:"replacement"`
}

// NewState returns an empty state, for a conversation that has not been budgeted yet.
func NewState() *State {
	return &State{SeenIDs: map[string]bool{}, Replacements: map[string]string{}}
}

// Clone returns an independent deep copy, for a forked sub-agent: it must make the
// parent's decisions on the shared prefix (or the prompt cache misses), while its own
// later decisions must not leak back into the parent. Cloning a nil state gives an
// empty one, so an optional parent needs no special case.
func (s *State) Clone() *State {
	c := NewState()
	if s == nil {
		return c
	}
	for id, seen := range s.SeenIDs { // order-free: copies into a map
		if seen {
			c.SeenIDs[id] = true
		}
	}
	for id, r := range s.Replacements {
		c.Replacements[id] = r
		c.SeenIDs[id] = true // restores the invariant should a payload have broken it
	}
	return c
}

// ensureMaps makes a decoded zero State writable.
func (s *State) ensureMaps() {
	if s.SeenIDs == nil {
		s.SeenIDs = map[string]bool{}
	}
	if s.Replacements == nil {
		s.Replacements = map[string]string{}
	}
}
