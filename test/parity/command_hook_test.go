package parity

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// commandHookScript decides by a marker in the call's input, the way a policy hook
// does: exit 2 with a reason on stderr, a JSON deny, a failing hook (exit 1, which
// blocks nothing), and PostToolUse feedback (exit 2, and additionalContext).
const commandHookScript = `import json, sys
d = json.load(sys.stdin)
ev, ti = d["hook_event_name"], json.dumps(d.get("tool_input", {}))
if ev == "PreToolUse":
    if "DENY-EXIT2" in ti:
        sys.stderr.write("blocked by policy")
        sys.exit(2)
    if "DENY-JSON" in ti:
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no echo today"}}))
    if "DENY-EMPTY" in ti:
        sys.exit(2)
    if "DENY-NOREASON" in ti:
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}))
    if "PRE-CTX" in ti:
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "pre context"}}))
    if "WARN-EXIT1" in ti:
        sys.stderr.write("hook hiccup")
        sys.exit(1)
if ev == "PostToolUse":
    if "POST-EXIT2" in ti:
        sys.stderr.write("post says no")
        sys.exit(2)
    if "POST-BLOCK-JSON" in ti:
        print(json.dumps({"decision": "block", "reason": "json says no"}))
    if "POST-CTX" in ti:
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "remember the context"}}))
`

// commandHookNotes names, for the calls whose hooks tell the model something, a text
// of what they tell it: Claude Code sends it in a system message after the results,
// toolpipe in the call's tool_result (a deliberate difference, README).
var commandHookNotes = map[int]string{3: "post says no", 4: "remember the context", 7: "pre context", 8: "json says no"}

var commandHookCase = parityCase{name: "ch", blocks: []caseBlock{
	blk("Bash", `{"command":"echo DENY-EXIT2","description":"a"}`),
	blk("Bash", `{"command":"echo DENY-JSON","description":"b"}`),
	blk("Bash", `{"command":"echo WARN-EXIT1","description":"c"}`),
	blk("Bash", `{"command":"echo POST-EXIT2","description":"d"}`),
	blk("Bash", `{"command":"echo POST-CTX","description":"e"}`),
	blk("Bash", `{"command":"echo DENY-EMPTY","description":"f"}`),
	blk("Bash", `{"command":"echo DENY-NOREASON","description":"g"}`),
	blk("Bash", `{"command":"echo PRE-CTX","description":"h"}`),
	blk("Bash", `{"command":"echo POST-BLOCK-JSON","description":"i"}`),
}}

// commandHookSettings writes the hook script and a settings file running it on
// every PreToolUse and PostToolUse, into dir.
func commandHookSettings(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "policy.py")
	if err := os.WriteFile(script, []byte(commandHookScript), 0o644); err != nil {
		t.Fatal(err)
	}
	hook := []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": "python3 \"" + script + "\""}}}}
	return writeSettings(t, dir, map[string]any{"PreToolUse": hook, "PostToolUse": hook})
}

// TestParityCommandHooks runs command hooks that deny, fail and give feedback
// through Claude Code and toolpipe, and compares the tool_results the model gets.
func TestParityCommandHooks(t *testing.T) {
	cm, root, home := runClaudeCase(t, commandHookCase, commandHookSettings, nil)
	notes := cm.systemNotes()

	tpRoot, tpHooks := t.TempDir(), t.TempDir()
	res := runWithSettings(t, commandHookCase, tpRoot, commandHookSettings(t, tpHooks), nil)
	scripts := map[string]string{filepath.Join(home, ".claude", "policy.py"): "<HOOK>", filepath.Join(tpHooks, "policy.py"): "<HOOK>"}
	norm := func(s, root string) string {
		for p, with := range scripts {
			s = strings.ReplaceAll(s, p, with)
		}
		return normalise(s, root)
	}
	compareTurn(t, commandHookCase, cm, root, tpRoot, res, norm, func(i int, w result) result {
		key, ok := commandHookNotes[i]
		if !ok {
			return w
		}
		var paras []string
		for _, p := range notes {
			if strings.Contains(p, key) {
				paras = append(paras, norm(p, root))
			}
		}
		if len(paras) == 0 {
			t.Errorf("%s: Claude Code told the model nothing with %q; its notes: %q", commandHookCase.id(i), key, notes)
		}
		w.Content += "\n\n<system-reminder>\n" + strings.Join(paras, "\n\n") + "\n</system-reminder>"
		return w
	})
}
