package permissions

import (
	"fmt"
	"strings"
)

// Mode is the permission mode, Claude Code's permissions.defaultMode or
// --permission-mode. It sets what happens to a call that no rule decides.
// The zero Mode is Default.
type Mode uint8

const (
	// Default asks before every call that is not read-only and has no
	// allow rule.
	Default Mode = iota
	// AcceptEdits also allows Edit and Write inside the working
	// directories without asking; Bash still asks.
	AcceptEdits
	// Plan is read-only: every call that is not read-only is denied, so
	// the agent can explore and propose but not change anything.
	Plan
	// BypassPermissions allows what no rule decides. Deny and ask rules
	// still apply, and edits in protected directories (.git, .claude,
	// .vscode, .idea) still ask, as in Claude Code, and of the control files
	// .mcp.json and toolpipe.yaml.
	BypassPermissions
	// DontAsk never asks: a call that would ask (no allow rule, an ask rule, a
	// hook's ask) is denied instead, so an unattended agent runs only what was
	// allowed beforehand, as in Claude Code.
	DontAsk
)

// modeNames is indexed by Mode and spelled as in settings.json.
var modeNames = []string{"default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"}

// ModeNames are the modes as settings.json and --permission-mode spell them, in
// Mode order: the one list that flags, the environment and toolpipe.yaml are
// checked against, so that every mode a settings file takes is accepted there too.
func ModeNames() []string { return append([]string(nil), modeNames...) }

// String returns the mode as settings.json spells it.
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// ParseMode reads a mode as settings.json spells it (case-sensitive, like
// Claude Code). The empty string is Default, for settings that set no mode.
// Claude Code's auto mode is not supported and is reported as an error rather
// than silently treated as another mode.
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return Default, nil
	}
	for i, name := range modeNames {
		if s == name {
			return Mode(i), nil
		}
	}
	return Default, fmt.Errorf("permissions: unknown permission mode %q; valid modes: %s",
		s, strings.Join(modeNames, ", "))
}

// MarshalText writes the mode's name, so that a Policy is readable JSON.
func (m Mode) MarshalText() ([]byte, error) {
	if int(m) >= len(modeNames) {
		return nil, fmt.Errorf("permissions: cannot marshal invalid %v", m)
	}
	return []byte(m.String()), nil
}

// UnmarshalText parses text with ParseMode.
func (m *Mode) UnmarshalText(text []byte) error {
	parsed, err := ParseMode(string(text))
	if err != nil {
		return err
	}
	*m = parsed
	return nil
}

// DenyAsk turns a decision that would ask into a denial when the mode is
// DontAsk, with a reason that says what would have been asked and how to allow
// it. Other decisions and modes are returned unchanged.
func (m Mode) DenyAsk(d Decision) Decision {
	if m != DontAsk || d.Behavior != Ask {
		return d
	}
	reason := "Permission to use this tool was denied: the permission mode is dontAsk, which denies every call that would ask for approval."
	if d.Reason != "" {
		reason += " It would have asked because: " + d.Reason
	}
	reason += " Add an allow rule to permissions.allow to let such calls run."
	return Decision{Behavior: Deny, Reason: reason, Rule: d.Rule}
}
