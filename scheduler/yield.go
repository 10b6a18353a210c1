package scheduler

import "github.com/toolpipe/toolpipe/tool"

// Yield moves completed tools to yielded, in arrival order, up to the first tool that
// has not completed (DESIGN §3.5), and returns them. Emission never passes a tool that
// is still queued or executing, so results come out in the order the model asked.
func (t *Tracker) Yield() []*Tracked {
	var out []*Tracked
	for _, x := range t.tools {
		if x.Status == Yielded {
			continue
		}
		if x.Status != Completed {
			break
		}
		x.Status = Yielded
		out = append(out, x)
	}
	return out
}

// Interrupt marks the turn interrupted by a new user message and returns the
// executing tools the caller must cancel: those whose behaviour is cancel. Tools that
// block keep running; queued cancel tools are aborted by the next Scan.
func (t *Tracker) Interrupt() []*Tracked { return t.interrupt(InterruptedMessage) }

// InterruptWithoutMessage is Interrupt for an interrupt that brings no message: the
// tools it stops say the user interrupted them.
func (t *Tracker) InterruptWithoutMessage() []*Tracked { return t.interrupt(InterruptedByUserMessage) }

// InterruptedText is the result of a tool the latest interrupt stopped.
func (t *Tracker) InterruptedText() string {
	if t.interruptText == "" {
		return InterruptedMessage
	}
	return t.interruptText
}

func (t *Tracker) interrupt(text string) []*Tracked {
	t.interrupted, t.interruptText = true, text
	var cancel []*Tracked
	for _, x := range t.tools {
		if x.Status == Executing && x.Interrupt == tool.InterruptCancel {
			cancel = append(cancel, x)
		}
	}
	return cancel
}

// Interruptible reports whether an interrupt would stop everything now: at least one
// tool is executing and every executing tool's behaviour is cancel (DESIGN §3.7).
func (t *Tracker) Interruptible() bool {
	n := 0
	for _, x := range t.tools {
		if x.Status != Executing {
			continue
		}
		if x.Interrupt != tool.InterruptCancel {
			return false
		}
		n++
	}
	return n > 0
}

// Errored reports whether a Bash error has cancelled the siblings.
func (t *Tracker) Errored() bool { return t.errored }

// Done reports whether every tracked tool has been yielded.
func (t *Tracker) Done() bool {
	for _, x := range t.tools {
		if x.Status != Yielded {
			return false
		}
	}
	return true
}

// Executing returns the tools executing now.
func (t *Tracker) Executing() []*Tracked {
	var out []*Tracked
	for _, x := range t.tools {
		if x.Status == Executing {
			out = append(out, x)
		}
	}
	return out
}
