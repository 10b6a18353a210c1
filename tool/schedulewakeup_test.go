package tool

import (
	"encoding/json"
	"testing"
)

// A wake-up's delay is clamped to Claude Code's 60-3,600 s, rounded to a second,
// and says whether it had to be.
func TestWakeupDelayIsClamped(t *testing.T) {
	for _, c := range []struct {
		in      string
		secs    int
		clamped bool
	}{
		{`{"delaySeconds": 5}`, 60, true},
		{`{"delaySeconds": 60}`, 60, false},
		{`{"delaySeconds": 1200.4}`, 1200, false},
		{`{"delaySeconds": 3600}`, 3600, false},
		{`{"delaySeconds": 86400}`, 3600, true},
		{`{"delaySeconds": -1}`, 60, true},
	} {
		var in ScheduleWakeupInput
		if err := json.Unmarshal([]byte(c.in), &in); err != nil {
			t.Fatal(err)
		}
		if s, cl := in.Clamped(); s != c.secs || cl != c.clamped {
			t.Errorf("%s: %d %v, want %d %v", c.in, s, cl, c.secs, c.clamped)
		}
	}
	// A session's own floor (SessionOptions.WakeupMinSeconds), itself bounded.
	five := 5.0
	for _, c := range []struct{ floor, secs int }{{6, 6}, {60, 60}, {2, 5}, {0, 5}, {99999, 3600}} {
		if s, _ := (ScheduleWakeupInput{DelaySeconds: &five}).ClampedFrom(c.floor); s != c.secs {
			t.Errorf("5 s with the floor %d: %d, want %d", c.floor, s, c.secs)
		}
	}
}
