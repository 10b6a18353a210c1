package permissions

import (
	"fmt"
	"strings"

	"github.com/toolpipe/toolpipe/tool"
)

// Decision is the answer of Decide.
type Decision struct {
	// Behavior says whether to run the call, ask a person, or refuse.
	Behavior Behavior
	// Reason explains the decision in a sentence fit for the model (when
	// denied, it is the error result) and for the person asked.
	Reason string
	// Rule is the rule that decided, in settings.json syntax, or several
	// joined by ", " when each part of a compound command needed its own
	// allow rule; "" when the mode or the working directories decided.
	Rule string
}

// Behavior is what a Decision tells the caller to do. The zero Behavior is
// Deny, so that a Decision nobody filled in refuses rather than runs.
type Behavior uint8

const (
	// Deny refuses the call; the Reason goes to the model as an error result.
	Deny Behavior = iota
	// Ask waits for a person to approve or deny the call.
	Ask
	// Allow runs the call.
	Allow
)

var behaviorNames = []string{"deny", "ask", "allow"}

// String returns "deny", "ask" or "allow", the words hooks use in
// permissionDecision.
func (b Behavior) String() string {
	if int(b) < len(behaviorNames) {
		return behaviorNames[b]
	}
	return fmt.Sprintf("Behavior(%d)", b)
}

// MarshalText writes the behaviour's String.
func (b Behavior) MarshalText() ([]byte, error) {
	if int(b) >= len(behaviorNames) {
		return nil, fmt.Errorf("permissions: cannot marshal invalid %v", b)
	}
	return []byte(b.String()), nil
}

// UnmarshalText reads "deny", "ask" or "allow".
func (b *Behavior) UnmarshalText(text []byte) error {
	for i, name := range behaviorNames {
		if string(text) == name {
			*b = Behavior(i)
			return nil
		}
	}
	return fmt.Errorf("permissions: unknown behavior %q; valid: deny, ask, allow", text)
}

// maxShown bounds how much of a command or path a reason quotes, so that a
// huge command does not make a huge history event or model message.
const maxShown = 200

// shorten cuts s to maxShown bytes at a rune boundary.
func shorten(s string) string {
	if len(s) <= maxShown {
		return s
	}
	cut := maxShown
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// what describes the call for a reason: `Bash command "ls"`, `Edit of
// /p/x.go`, `WebFetch of https://x`, or the tool name.
func (c *call) what() string {
	switch c.kind {
	case kindBash:
		return fmt.Sprintf("Bash command %q", shorten(c.req.Command))
	case kindRead, kindEdit:
		return fmt.Sprintf("%s of %s", c.req.Tool, shorten(c.paths[0]))
	case kindWebFetch:
		return fmt.Sprintf("WebFetch of %s", shorten(c.req.URL))
	}
	return c.req.Tool
}

func (c *call) workingDirs() string {
	dirs := append([]string{c.pol.WorkDir}, c.pol.AdditionalDirs...)
	return strings.Join(dirs, ", ")
}

// deniedByRule tells the model of a deny rule in Claude Code 2.1.328's words
// (test/parity TestParityPermissionRules compares them): a rule that names the whole
// tool disables it, a file tool's path is "in a directory that is denied" (a search's
// is "Permission to read PATH has been denied."), a Bash
// command "has been denied", a WebFetch is "denied access to" the rule's domain.
// The rule itself is in the Decision, for people.
func deniedByRule(c *call, r Rule) Decision {
	var msg string
	switch {
	case r.Specifier == "":
		msg = tool.UseError(fmt.Sprintf("Error: No such tool available: %s. %s is disabled for this session, in subagents as well as here.", c.req.Tool, c.req.Tool))
	case c.kind == kindRead && c.req.Tool != ToolRead && len(c.paths) > 0: // Glob, Grep: the searched path
		msg = fmt.Sprintf("Permission to read %s has been denied.", c.paths[0])
	case c.kind == kindRead || c.kind == kindEdit:
		msg = tool.UseError("File is in a directory that is denied by your permission settings.")
	case c.kind == kindBash:
		msg = fmt.Sprintf("Permission to use Bash with command %s has been denied.", c.req.Command)
	case c.kind == kindWebFetch:
		msg = fmt.Sprintf("WebFetch denied access to %s.", r.Specifier)
	default:
		msg = fmt.Sprintf("Permission to use %s has been denied.", c.req.Tool)
	}
	return Decision{Deny, msg, r.String()}
}

func askedByRule(c *call, r Rule) Decision {
	return Decision{Ask, fmt.Sprintf("The rule %s in permissions.ask requires approval for %s.", r, c.what()), r.String()}
}

func deniedByPlan(c *call) Decision {
	return Decision{Deny, fmt.Sprintf("Permission to use %s was denied: plan mode is read-only and this call could change something. "+
		"Present the plan instead of carrying it out.", c.what()), ""}
}

func outsideReason(c *call, p string) string {
	return fmt.Sprintf("%s is outside the working directories (%s)", shorten(p), c.workingDirs())
}
