package budget

// Reconstruct rebuilds the state of a resumed agent, which has its transcript and
// records but not the live state of the run that wrote them.
//
// messages must be the conversation as it was last budgeted (Enforce's input or its
// output, but nothing appended since): every budgeted tool result in it is marked
// seen, because
// being in the transcript means it was sent to the model and judged. Each record then
// restores its replacement, byte for byte; a later record for an id wins, as replaying
// a log would. Records whose ids are gone (say, after compaction) are kept: they are
// inert, and dropping them would need a policy this package cannot know.
//
// inherited, which may be nil, is the parent's state when a forked sub-agent resumes:
// the fork re-applied replacements it inherited without recording them, so only the
// parent knows those. The result starts from a clone of it and the agent's own records
// take precedence. inherited itself is not modified.
func Reconstruct(messages []Message, records []Record, inherited *State) *State {
	st := inherited.Clone()
	for group := range collectGroups(messages).all() {
		for _, c := range group {
			st.SeenIDs[c.id] = true
		}
	}
	for _, r := range records {
		st.SeenIDs[r.ToolUseID] = true
		st.Replacements[r.ToolUseID] = r.Replacement
	}
	return st
}
