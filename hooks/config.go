package hooks

import (
	"slices"
	"time"
)

// Event is a hook event name, as settings.json spells it.
type Event string

// The events toolpipe runs hooks for, as Claude Code names them. The tool events
// run in the Turn workflow; the others belong to the agent loop and run in the
// Session workflow (UserPromptSubmit, Stop, SubagentStop, SessionStart, SessionEnd,
// PreCompact) or when a call waits for approval (Notification, PermissionRequest).
const (
	PreToolUse         Event = "PreToolUse"
	PostToolUse        Event = "PostToolUse"
	PostToolUseFailure Event = "PostToolUseFailure"
	PermissionRequest  Event = "PermissionRequest"
	Notification       Event = "Notification"
	UserPromptSubmit   Event = "UserPromptSubmit"
	Stop               Event = "Stop"
	SubagentStop       Event = "SubagentStop"
	SessionStart       Event = "SessionStart"
	SessionEnd         Event = "SessionEnd"
	PreCompact         Event = "PreCompact"
)

// Events lists the supported events.
var Events = []Event{PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, Notification,
	UserPromptSubmit, Stop, SubagentStop, SessionStart, SessionEnd, PreCompact}

// DefaultTimeout is a hook command's timeout when settings.json gives none.
const DefaultTimeout = 600 * time.Second

// Command is one hook command: {"type": "command", "command": ..., "timeout": ...}.
type Command struct {
	// Command is run with bash -c in the project directory.
	Command string `json:"command"`
	// Timeout is in seconds, as in settings.json; 0 means DefaultTimeout.
	Timeout float64 `json:"timeout,omitempty"`
}

// TimeoutDuration is the command's timeout.
func (c Command) TimeoutDuration() time.Duration {
	if c.Timeout <= 0 {
		return DefaultTimeout
	}
	return time.Duration(c.Timeout * float64(time.Second))
}

// Group is one entry of an event's list: the commands that run for tools the matcher
// matches.
type Group struct {
	Matcher string    `json:"matcher,omitempty"`
	Hooks   []Command `json:"hooks"`
}

// Config holds the hooks of every event. It travels in workflow input, so it is
// a struct of slices, never a map: the order of hooks is the settings' order.
type Config struct {
	PreToolUse         []Group `json:"PreToolUse,omitempty"`
	PostToolUse        []Group `json:"PostToolUse,omitempty"`
	PostToolUseFailure []Group `json:"PostToolUseFailure,omitempty"`
	PermissionRequest  []Group `json:"PermissionRequest,omitempty"`
	Notification       []Group `json:"Notification,omitempty"`
	UserPromptSubmit   []Group `json:"UserPromptSubmit,omitempty"`
	Stop               []Group `json:"Stop,omitempty"`
	SubagentStop       []Group `json:"SubagentStop,omitempty"`
	SessionStart       []Group `json:"SessionStart,omitempty"`
	SessionEnd         []Group `json:"SessionEnd,omitempty"`
	PreCompact         []Group `json:"PreCompact,omitempty"`
}

// list returns the address of an event's list, nil for an unknown event.
func (c *Config) list(e Event) *[]Group {
	switch e {
	case PreToolUse:
		return &c.PreToolUse
	case PostToolUse:
		return &c.PostToolUse
	case PostToolUseFailure:
		return &c.PostToolUseFailure
	case PermissionRequest:
		return &c.PermissionRequest
	case Notification:
		return &c.Notification
	case UserPromptSubmit:
		return &c.UserPromptSubmit
	case Stop:
		return &c.Stop
	case SubagentStop:
		return &c.SubagentStop
	case SessionStart:
		return &c.SessionStart
	case SessionEnd:
		return &c.SessionEnd
	case PreCompact:
		return &c.PreCompact
	}
	return nil
}

// Groups returns the groups of one event.
func (c Config) Groups(e Event) []Group {
	if l := c.list(e); l != nil {
		return *l
	}
	return nil
}

// Empty reports whether no hook is configured for any event.
func (c Config) Empty() bool {
	for _, e := range Events {
		if c.Has(e) {
			return false
		}
	}
	return true
}

// Has reports whether any hook is configured for event e.
func (c Config) Has(e Event) bool {
	for _, g := range c.Groups(e) {
		if len(g.Hooks) > 0 {
			return true
		}
	}
	return false
}

// ToolGates reports whether hooks run around tool calls: the events of a call's
// pipeline (the others run elsewhere and do not make a turn gate its tools).
func (c Config) ToolGates() bool {
	return c.Has(PreToolUse) || c.Has(PostToolUse) || c.Has(PostToolUseFailure) || c.Has(PermissionRequest)
}

// add appends groups to an event's list.
func (c *Config) add(e Event, gs []Group) {
	if l := c.list(e); l != nil {
		*l = append(*l, gs...)
	}
}

// Select returns the commands to run for a call of toolName at event e (for the
// events that are not about a tool, the matcher is matched against what Claude Code
// matches: SessionStart's source, Notification's type, SessionEnd's reason, or ""
// for the events without matchers, which every matcher matches): those of
// every group whose matcher matches, in settings order, each distinct command text
// once (Claude Code runs identical commands once; the first one's timeout is kept).
// A matcher that is not a valid regular expression matches nothing: the loader
// rejects such settings, so this only guards input built by hand.
func (c Config) Select(e Event, toolName string) []Command {
	var out []Command
	for _, g := range c.Groups(e) {
		if !e.matchless() && !Match(g.Matcher, toolName) {
			continue
		}
		for _, h := range g.Hooks {
			if !slices.ContainsFunc(out, func(o Command) bool { return o.Command == h.Command }) {
				out = append(out, h)
			}
		}
	}
	return out
}

// matchless reports whether Claude Code ignores the matchers of event e: every
// group of it runs.
func (e Event) matchless() bool {
	switch e {
	case UserPromptSubmit, Stop, SubagentStop:
		return true
	}
	return false
}
