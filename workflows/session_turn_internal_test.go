package workflows

import (
	"testing"

	"github.com/toolpipe/toolpipe/conversation"
)

// A session's turns are numbered on from its stored head; one whose head predates
// the numbering (its turns were named after their messages, turn-<seq>, all below
// Next) numbers on from Next, past every id it used.
func TestNextTurnNumber(t *testing.T) {
	for _, c := range []struct {
		head conversation.Head
		want int
	}{
		{conversation.Head{Next: 1, TurnsNumbered: true}, 1},
		{conversation.Head{Next: 9, LastTurn: 3, TurnsNumbered: true}, 4},
		{conversation.Head{Next: 9}, 10}, // turn-2, turn-4, … turn-8 were used
	} {
		s := &session{head: c.head}
		if got := s.nextTurnNumber(); got != c.want || !s.head.TurnsNumbered {
			t.Errorf("head %+v: next turn %d (numbered %v), want %d", c.head, got, s.head.TurnsNumbered, c.want)
		}
	}
}
