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

// DefaultPromptTimeout is a prompt hook's timeout when settings.json gives none, as
// in Claude Code: a model's yes or no should not hold a tool call for minutes.
const DefaultPromptTimeout = 30 * time.Second

// The hook types toolpipe runs.
const (
	// TypeCommand runs a shell command (the default when type is absent).
	TypeCommand = "command"
	// TypePrompt asks a small model whether the action may go ahead (prompt.go).
	TypePrompt = "prompt"
)

// Command is one hook: {"type": "command", "command": ..., "timeout": ...}, or
// {"type": "prompt", "prompt": ..., "model": ..., "timeout": ...}.
type Command struct {
	// Type is TypeCommand or TypePrompt; "" means TypeCommand (settings from
	// before prompt hooks).
	Type string `json:"type,omitempty"`
	// Command is run with /bin/sh -c in the project directory, as Claude Code runs it.
	Command string `json:"command,omitempty"`
	// Prompt is a prompt hook's question; $ARGUMENTS is replaced by the hook input.
	Prompt string `json:"prompt,omitempty"`
	// Model is a prompt hook's model; "" means the worker's small fast model.
	Model string `json:"model,omitempty"`
	// ContinueOnBlock: a prompt hook that answers ok: false blocks the action but
	// lets the agent go on (Claude Code's continueOnBlock).
	ContinueOnBlock bool `json:"continue_on_block,omitempty"`
	// Timeout is in seconds, as in settings.json; 0 means DefaultTimeout
	// (DefaultPromptTimeout for a prompt hook).
	Timeout float64 `json:"timeout,omitempty"`
}

// IsPrompt reports whether c is a prompt hook.
func (c Command) IsPrompt() bool { return c.Type == TypePrompt }

// TimeoutDuration is the hook's timeout.
func (c Command) TimeoutDuration() time.Duration {
	switch {
	case c.Timeout > 0:
		return time.Duration(c.Timeout * float64(time.Second))
	case c.IsPrompt():
		return DefaultPromptTimeout
	}
	return DefaultTimeout
}

// Text is what the hook runs: its command, or its prompt.
func (c Command) Text() string {
	if c.IsPrompt() {
		return c.Prompt
	}
	return c.Command
}

// same reports whether two hooks are the same one, as Claude Code deduplicates:
// commands by their text, prompts by their text and model.
func (c Command) same(o Command) bool {
	return c.IsPrompt() == o.IsPrompt() && c.Text() == o.Text() && c.Model == o.Model
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

// HasPrompt reports whether any prompt hook is configured: the worker then needs a
// model.
func (c Config) HasPrompt() bool {
	for _, e := range Events {
		for _, g := range c.Groups(e) {
			if slices.ContainsFunc(g.Hooks, Command.IsPrompt) {
				return true
			}
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
// once (Claude Code runs identical commands once, and identical prompts with the same
// model; the first one's timeout is kept).
// A matcher that is not a valid regular expression matches nothing: the loader
// rejects such settings, so this only guards input built by hand.
func (c Config) Select(e Event, toolName string) []Command {
	var out []Command
	for _, g := range c.Groups(e) {
		if !e.matchless() && !Match(g.Matcher, toolName) {
			continue
		}
		for _, h := range g.Hooks {
			if !slices.ContainsFunc(out, h.same) {
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
