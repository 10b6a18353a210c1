package conversation

// Segment names consecutive messages stored under one session: messages
// First..First+Count-1 of Session's conversation directory. A conversation is a list
// of segments, so that a forked sub-agent can start with its parent's messages
// without copying them, and a workflow carries a few numbers instead of texts.
type Segment struct {
	Session string `json:"session"`
	First   int    `json:"first"`
	Count   int    `json:"count"`
	// Bytes is the total Size of the segment's messages.
	Bytes int `json:"bytes"`
}

// Ref locates one stored message.
type Ref struct {
	Session string `json:"session"`
	Seq     int    `json:"seq"`
}

// Conversation is an ordered list of segments.
type Conversation []Segment

// Len is the number of messages.
func (c Conversation) Len() int {
	n := 0
	for _, s := range c {
		n += s.Count
	}
	return n
}

// Bytes is the total size of the messages.
func (c Conversation) Bytes() int {
	n := 0
	for _, s := range c {
		n += s.Bytes
	}
	return n
}

// Refs lists every message's location, in order.
func (c Conversation) Refs() []Ref {
	out := make([]Ref, 0, c.Len())
	for _, s := range c {
		for i := 0; i < s.Count; i++ {
			out = append(out, Ref{Session: s.Session, Seq: s.First + i})
		}
	}
	return out
}

// Append returns c with n messages of size bytes stored under session from seq on;
// they extend the last segment when they continue it.
func (c Conversation) Append(session string, seq, n, bytes int) Conversation {
	out := append(Conversation(nil), c...)
	if k := len(out) - 1; k >= 0 && out[k].Session == session && out[k].First+out[k].Count == seq {
		out[k].Count += n
		out[k].Bytes += bytes
		return out
	}
	return append(out, Segment{Session: session, First: seq, Count: n, Bytes: bytes})
}

// Prefix returns the first n messages of c (all of them when n is larger). Sizes of
// a cut segment are unknown and counted as zero.
func (c Conversation) Prefix(n int) Conversation {
	var out Conversation
	for _, s := range c {
		if n <= 0 {
			break
		}
		if s.Count > n {
			s.Count, s.Bytes = n, 0
		}
		out = append(out, s)
		n -= s.Count
	}
	return out
}
