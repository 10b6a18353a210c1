package permissions

// rank orders the modes by how much they let run without a person: plan (only
// reading), dontAsk (only what is allowed beforehand), default (asks), acceptEdits
// (edits too), bypassPermissions (everything no rule decides).
var rank = map[Mode]int{Plan: 0, DontAsk: 1, Default: 2, AcceptEdits: 3, BypassPermissions: 4}

// Raises reports whether m lets more run without approval than over does. A
// workspace's own files may lower the mode the user chose but never raise it
// (settings.Load).
func (m Mode) Raises(over Mode) bool { return rank[m] > rank[over] }
