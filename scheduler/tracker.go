package scheduler

import (
	"fmt"

	"github.com/toolpipe/toolpipe/tool"
)

// Status is a tracked tool's place in the lifecycle queued → executing → completed →
// yielded (or queued → completed when aborted with a synthetic error).
type Status string

// The states of DESIGN §3.
const (
	Queued    Status = "queued"
	Executing Status = "executing"
	Completed Status = "completed"
	Yielded   Status = "yielded"
)

// Tracked is one tool call in a turn.
type Tracked struct {
	Block     tool.Block
	Status    Status
	Safe      bool
	Interrupt tool.InterruptBehavior
	Result    *tool.Result
	Modifier  *tool.Modifier
	// Known is false for a tool that does not exist (it failed fast).
	Known bool
	// CancelsSiblings: an error result of this call, once it ran, cancels its
	// siblings (tool.Spec.CancelsSiblings: Bash).
	CancelsSiblings bool
	// Description names the call for people (tool.Definition.Describe), computed once: the
	// turn's UI details show it after every scheduling step, and parsing a large
	// input (a 5 MB Write) each time would cost more than the step.
	Description string
}

// Tracker holds the tools of one turn in arrival order.
type Tracker struct {
	tools []*Tracked
	index map[string]int

	errored     bool   // a Bash call failed: siblings are cancelled
	erroredDesc string // which one, for the synthetic message
	interrupted bool   // the user sent a new message, or interrupted
	// interruptText is the synthetic result of the tools the interrupt stops: it
	// says whether a message came with it.
	interruptText string

	// known resolves tool names.
	known Tools
}

// Tools is what a tracker knows of the tools: a worker's registry, or a turn's
// view of it (its MCP tools beside, and what it recorded of the others).
type Tools interface {
	Lookup(name string) (*tool.Definition, bool)
	// UnknownToolMessage is the result of a call to a tool it does not have
	// (DESIGN §3.1), in Claude Code's words (tool.UnknownToolMessage).
	UnknownToolMessage(name string) string
}

// New returns an empty tracker of tools.
func New(tools Tools) *Tracker {
	return &Tracker{index: map[string]int{}, known: tools}
}

// SiblingErrorMessage is the synthetic result of a tool cancelled because a parallel
// Bash call failed (DESIGN §3.6).
func SiblingErrorMessage(desc string) string {
	return fmt.Sprintf("Cancelled: parallel tool call %s errored", desc)
}

// InterruptedMessage is the synthetic result of a tool stopped by a user's new message.
const InterruptedMessage = "Interrupted: the user sent a new message, so this tool call was stopped before it finished"

// InterruptedByUserMessage is the synthetic result of a tool stopped by an interrupt
// that came without a message (`starter agent interrupt`): the model must not look
// for a message that was never sent.
const InterruptedByUserMessage = "Interrupted: the user interrupted this tool call, so it was stopped before it finished"

// Has reports whether a tool_use id is already tracked.
func (t *Tracker) Has(id string) bool {
	_, ok := t.index[id]
	return ok
}

// Add tracks a new block. An unknown tool completes at once with an error and counts
// as safe; otherwise safety is computed now, from the input, failing closed.
func (t *Tracker) Add(b tool.Block) (*Tracked, error) {
	if t.Has(b.ID) {
		return nil, fmt.Errorf("scheduler: duplicate tool_use id %q", b.ID)
	}
	tr := &Tracked{Block: b, Status: Queued}
	if def, ok := t.known.Lookup(b.Name); ok {
		tr.Known = true
		tr.Description = def.Describe(b.Input)
		tr.Safe = def.IsConcurrencySafe(b.Input)
		tr.Interrupt = def.InterruptBehavior()
		tr.CancelsSiblings = def.CancelsSiblings()
	} else {
		tr.Description = tool.Describe(b)
		tr.Status = Completed
		tr.Safe = true
		tr.Interrupt = tool.InterruptBlock
		r := tool.ErrorResult(b.ID, t.known.UnknownToolMessage(b.Name))
		tr.Result = &r
	}
	t.index[b.ID] = len(t.tools)
	t.tools = append(t.tools, tr)
	return tr, nil
}

// Get returns the tracked tool with id, or nil.
func (t *Tracker) Get(id string) *Tracked {
	i, ok := t.index[id]
	if !ok {
		return nil
	}
	return t.tools[i]
}

// Tools returns the tracked tools in arrival order. Callers must not modify them.
func (t *Tracker) Tools() []*Tracked { return t.tools }

// CanExecute is the scheduling rule of DESIGN §3.3: nothing is executing, or this tool
// is safe and everything executing is safe.
func (t *Tracker) CanExecute(safe bool) bool {
	for _, x := range t.tools {
		if x.Status == Executing && !(safe && x.Safe) {
			return false
		}
	}
	return true
}

// Scan is the queue scan of DESIGN §3.4. It walks the tools in arrival order, marks each
// queued tool that can execute as executing and returns those (the caller starts
// them), and stops at a queued non-safe tool that cannot execute. Queued tools that an
// error or an interrupt aborted complete here with their synthetic error instead.
func (t *Tracker) Scan() []*Tracked {
	var start []*Tracked
	for _, x := range t.tools {
		if x.Status != Queued {
			continue
		}
		if msg, aborted := t.abortReason(x); aborted {
			t.finish(x, tool.ErrorResult(x.Block.ID, msg), nil)
			continue
		}
		if t.CanExecute(x.Safe) {
			x.Status = Executing
			start = append(start, x)
		} else if !x.Safe {
			break
		}
	}
	return start
}

// abortReason tells whether a tool that has not started must not start, and with
// which synthetic result: after a Bash error every sibling is cancelled; after an
// interrupt only tools whose behaviour is cancel are.
func (t *Tracker) abortReason(x *Tracked) (string, bool) {
	if t.errored {
		return SiblingErrorMessage(t.erroredDesc), true
	}
	if t.interrupted && x.Interrupt == tool.InterruptCancel {
		return t.InterruptedText(), true
	}
	return "", false
}

// Complete records the outcome of an executing tool. It reports whether the result
// triggers the sibling cascade, in which case the caller cancels the sibling scope.
// Only a real error of a tool that cancels its siblings (Bash) cascades; synthetic
// results never do.
func (t *Tracker) Complete(id string, r tool.Result, m *tool.Modifier) (cascade bool, err error) {
	x := t.Get(id)
	if x == nil || x.Status != Executing {
		return false, fmt.Errorf("scheduler: %q is not executing", id)
	}
	r.ToolUseID = id
	t.finish(x, r, m)
	if r.IsError && x.CancelsSiblings && !t.errored {
		t.errored = true
		t.erroredDesc = x.Description
		return true, nil
	}
	return false, nil
}

// Cancelled records that an executing tool was stopped by the sibling cascade or an
// interrupt, giving it the synthetic result that says which.
func (t *Tracker) Cancelled(id string) error {
	x := t.Get(id)
	if x == nil || x.Status != Executing {
		return fmt.Errorf("scheduler: %q is not executing", id)
	}
	msg := t.InterruptedText()
	if t.errored {
		msg = SiblingErrorMessage(t.erroredDesc)
	}
	t.finish(x, tool.ErrorResult(id, msg), nil)
	return nil
}

func (t *Tracker) finish(x *Tracked, r tool.Result, m *tool.Modifier) {
	x.Status = Completed
	x.Result = &r
	x.Modifier = m
}
