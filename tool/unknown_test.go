package tool

import "testing"

// TestUnknownToolMessage: Claude Code 2.1.328's texts (test/parity compares them
// with Claude Code itself).
func TestUnknownToolMessage(t *testing.T) {
	cases := map[string]string{
		"bash":         "Error: No such tool available: bash. Tool names are case-sensitive: call Bash instead.",
		"GREP":         "Error: No such tool available: GREP. Tool names are case-sensitive: call Grep instead.",
		"NotebookEdit": "Error: No such tool available: NotebookEdit. NotebookEdit is disabled for this session, in subagents as well as here.",
		"Frobnicate":   "Error: No such tool available: Frobnicate",
		"Bash ":        "Error: No such tool available: Bash ",
		"PowerShell":   "Error: No such tool available: PowerShell",
		"SendMessage":  "Error: No such tool available: SendMessage" + hints["SendMessage"],
		"Task":         "Error: No such tool available: Task. Task is disabled for this session, in subagents as well as here.",
		"ListPeers":    "Error: No such tool available: ListPeers. ListPeers is disabled for this session, in subagents as well as here.",
		"Brief":        "Error: No such tool available: Brief. Brief is not enabled in this session \u2014 write your message as normal assistant text instead.",
		"Eval":         "Error: No such tool available: Eval",
	}
	for name, want := range cases {
		if got := UnknownToolMessage(name, []string{"Bash", "Edit", "Glob", "Grep", "Read", "TaskStop", "WebFetch", "Write"}); got != UseError(want) {
			t.Errorf("%q:\n got  %s\n want %s", name, got, UseError(want))
		}
	}
	// Two tools that differ only in case: no guess.
	if got := UnknownToolMessage("foo", []string{"Foo", "FOO"}); got != UseError("Error: No such tool available: foo") {
		t.Errorf("ambiguous case: %s", got)
	}
}

func TestCanonical(t *testing.T) {
	if Canonical("KillShell") != TaskStopName || Canonical("Bash") != "Bash" {
		t.Error("KillShell is TaskStop; other names are themselves")
	}
}
