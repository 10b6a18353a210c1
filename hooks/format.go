package hooks

import (
	"fmt"
	"strings"
)

// DenyText is the error result of a call the PreToolUse hooks r denied, in Claude
// Code's words: "PreToolUse:Bash hook error: <reason>", where an exit 2's reason is
// "[command]: stderr" and a prompt hook's "[prompt]: reason" (Parse and ParsePrompt
// shape them), and a deny that gives none is "Blocked by hook".
func DenyText(toolName string, r Result) string {
	reason := r.Reason
	if reason == "" {
		reason = "Blocked by hook"
	}
	return fmt.Sprintf("%s:%s hook error: %s", PreToolUse, toolName, reason)
}

// Reminder appends to a call's result what its hooks tell the model, each a
// paragraph in Claude Code's words: the PostToolUse blocking errors ("PostToolUse:Bash
// hook blocking error from command: …"), then the additionalContext of the
// PostToolUse and of the PreToolUse hooks ("PreToolUse:Bash hook additional context:
// …"). Claude Code sends the same paragraphs as a system message after the turn's
// results; toolpipe keeps them with the call they concern, in one <system-reminder>
// after the tool's own output, since a turn's answer is its tool_result blocks
// (DESIGN §5). pre and post are the phases' results (zero when a phase did not run).
func Reminder(content, toolName string, pre, post Result) string {
	var paras []string
	for _, b := range post.Blocking {
		paras = append(paras, fmt.Sprintf("%s:%s hook blocking error %s", post.Event, toolName, b))
	}
	for _, r := range []Result{post, pre} {
		for _, c := range r.Context {
			paras = append(paras, fmt.Sprintf("%s:%s hook additional context: %s", r.Event, toolName, c))
		}
	}
	if len(paras) == 0 {
		return content
	}
	block := "<system-reminder>\n" + strings.Join(paras, "\n\n") + "\n</system-reminder>"
	if content == "" {
		return block
	}
	return strings.TrimRight(content, "\n") + "\n\n" + block
}
