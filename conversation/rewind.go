package conversation

import (
	"errors"
	"fmt"
)

// ErrNoPoint is the error of a target a session does not have.
var ErrNoPoint = errors.New("no such point")

// FindTurn returns the mark of turn n (the Turn workflow turn-<n>).
func FindTurn(marks []TurnMark, n int) (TurnMark, error) {
	last := 0
	for _, m := range marks {
		if m.Turn == n && n > 0 {
			return m, nil
		}
		last = max(last, m.Turn)
	}
	if last == 0 {
		return TurnMark{}, fmt.Errorf("%w: the session has no turns in its history (sessions recorded before toolpipe kept one have none)", ErrNoPoint)
	}
	return TurnMark{}, fmt.Errorf("%w: the session has turns 1 to %d, not %d (`starter agent history` lists them)", ErrNoPoint, last, n)
}

// Point is where a target takes the conversation of a session whose head is head.
type Point struct {
	Conversation Conversation
	// Mark is the turn gone to (nil for LATEST).
	Mark *TurnMark
	// Latest is what LATEST will go back to after this rewind.
	Latest Conversation
}

// Resolve finds target in a session's marks and rewinds. LATEST is the conversation
// before the first of the rewinds made since the session last went on; a session
// that went on after its last rewind is at its latest already.
func Resolve(marks []TurnMark, rewinds []RewindRecord, head Head, target RewindTarget) (Point, error) {
	var last *RewindRecord
	if n := len(rewinds); n > 0 && rewinds[n-1].Next == head.Next {
		last = &rewinds[n-1] // no message since it: a second rewind keeps its LATEST
	}
	latest := head.Conversation
	if last != nil {
		latest = last.Latest
	}
	if target.Latest {
		if last == nil {
			if len(rewinds) == 0 {
				return Point{}, fmt.Errorf("%w: LATEST undoes a rewind, and the session was never rewound", ErrNoPoint)
			}
			return Point{}, fmt.Errorf("%w: the session went on after its last rewind, so it is at its latest; go back to a turn of the earlier branch with --to N (`starter agent history` lists them)", ErrNoPoint)
		}
		return Point{Conversation: last.Latest, Latest: last.Latest}, nil
	}
	m, err := FindTurn(marks, target.Turn)
	if err != nil {
		return Point{}, err
	}
	conv := m.Before
	if target.After {
		conv = m.After
	}
	return Point{Conversation: conv, Mark: &m, Latest: latest}, nil
}

// Words says a target for people: "before turn 4", "after turn 4", "LATEST".
func (t RewindTarget) Words() string {
	switch {
	case t.Latest:
		return "LATEST"
	case t.After:
		return fmt.Sprintf("after turn %d", t.Turn)
	}
	return fmt.Sprintf("before turn %d", t.Turn)
}
