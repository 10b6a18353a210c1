package hooks

import (
	"slices"
	"time"
)

// Event is a hook event name, as settings.json spells it.
type Event string

// The tool events toolpipe runs hooks for. Claude Code's other events (Stop,
// UserPromptSubmit, SessionStart, ...) belong to the agent loop, not to tool
// execution; the loader reports them as ignored.
const (
	PreToolUse         Event = "PreToolUse"
	PostToolUse        Event = "PostToolUse"
	PostToolUseFailure Event = "PostToolUseFailure"
)

// Events lists the supported events in the order they fire.
var Events = []Event{PreToolUse, PostToolUse, PostToolUseFailure}

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

// Config holds the hooks of the tool events. It travels in workflow input, so it is
// a struct of slices, never a map: the order of hooks is the settings' order.
type Config struct {
	PreToolUse         []Group `json:"PreToolUse,omitempty"`
	PostToolUse        []Group `json:"PostToolUse,omitempty"`
	PostToolUseFailure []Group `json:"PostToolUseFailure,omitempty"`
}

// Groups returns the groups of one event.
func (c Config) Groups(e Event) []Group {
	switch e {
	case PreToolUse:
		return c.PreToolUse
	case PostToolUse:
		return c.PostToolUse
	case PostToolUseFailure:
		return c.PostToolUseFailure
	}
	return nil
}

// Empty reports whether no hook is configured for any event.
func (c Config) Empty() bool {
	for _, e := range Events {
		for _, g := range c.Groups(e) {
			if len(g.Hooks) > 0 {
				return false
			}
		}
	}
	return true
}

// add appends groups to an event's list.
func (c *Config) add(e Event, gs []Group) {
	switch e {
	case PreToolUse:
		c.PreToolUse = append(c.PreToolUse, gs...)
	case PostToolUse:
		c.PostToolUse = append(c.PostToolUse, gs...)
	case PostToolUseFailure:
		c.PostToolUseFailure = append(c.PostToolUseFailure, gs...)
	}
}

// Select returns the commands to run for a call of toolName at event e: those of
// every group whose matcher matches, in settings order, each distinct command text
// once (Claude Code runs identical commands once; the first one's timeout is kept).
// A matcher that is not a valid regular expression matches nothing: the loader
// rejects such settings, so this only guards input built by hand.
func (c Config) Select(e Event, toolName string) []Command {
	var out []Command
	for _, g := range c.Groups(e) {
		if !Match(g.Matcher, toolName) {
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
